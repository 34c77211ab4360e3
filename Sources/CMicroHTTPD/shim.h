#include <stdint.h>
#include <stddef.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call the variadic MHD_start_daemon and MHD_get_daemon_info: one typed call each,
// with the options the editor's server sets.

// Percent-decodes `s` in place as libmicrohttpd's own decoder does, but for `%2F` and `%00`: an
// encoded slash is part of a path segment, not a separator between two, and an encoded NUL would
// end the C string the path and the arguments are read as ("/api/book%00.svg" read as /api/book),
// so both stay as they were written. Returns the new length.
static inline size_t cmhd_unescape(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls;
    (void)connection;
    char *read = s, *write = s;
    while (*read != '\0') {
        if (read[0] == '%') {
            int high = -1, low = -1;
            char h = read[1], l = h == '\0' ? '\0' : read[2];
            if (h >= '0' && h <= '9') high = h - '0'; else if (h >= 'a' && h <= 'f') high = h - 'a' + 10; else if (h >= 'A' && h <= 'F') high = h - 'A' + 10;
            if (l >= '0' && l <= '9') low = l - '0'; else if (l >= 'a' && l <= 'f') low = l - 'a' + 10; else if (l >= 'A' && l <= 'F') low = l - 'A' + 10;
            if (high >= 0 && low >= 0) {
                int value = high * 16 + low;
                if (value != 0 && value != '/') {
                    *write++ = (char)value;
                    read += 3;
                    continue;
                }
            }
        }
        *write++ = *read++;
    }
    *write = '\0';
    return (size_t)(write - s);
}

// Starts a daemon on `address` (a sockaddr_in or sockaddr_in6; `flags` carries MHD_USE_IPv6 for
// the second) with a limit of connections at once, a timeout in seconds after which an idle or
// slow connection is closed, and a limit of memory per connection (its headers and buffers).
// `completed` is called once for every request that got a context, however it ended. The client
// is held to the protocol (an HTTP/1.1 request without a Host header, or with a space in its
// target, is refused with 400), and paths and arguments are decoded by `cmhd_unescape`.
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
                            MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
                            MHD_OPTION_UNESCAPE_CALLBACK, cmhd_unescape, NULL,
                            MHD_OPTION_END);
}

// The port the daemon listens on (the one the system chose when 0 was asked for); 0 when unknown.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
