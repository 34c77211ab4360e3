#include <stdint.h>
#include <stddef.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call the variadic MHD_start_daemon and MHD_get_daemon_info: one typed call each,
// with the options the editor's server sets.

// Starts a daemon on `address` (a sockaddr_in or sockaddr_in6; `flags` carries MHD_USE_IPv6 for
// the second) with a limit of connections at once, a timeout in seconds after which an idle or
// slow connection is closed, and a limit of memory per connection (its headers and buffers).
// `completed` is called once for every request that got a context, however it ended.
static inline struct MHD_Daemon *cmhd_start(unsigned int flags, const struct sockaddr *address,
                                            MHD_AccessHandlerCallback handler, void *context,
                                            MHD_RequestCompletedCallback completed,
                                            unsigned int connectionLimit, unsigned int timeoutSeconds,
                                            size_t memoryLimit) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memoryLimit,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                            MHD_OPTION_END);
}

// The port the daemon listens on (the one the system chose when 0 was asked for); 0 when unknown.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
