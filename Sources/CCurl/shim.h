#include <curl/curl.h>

// Swift cannot call the variadic curl_easy_setopt and curl_easy_getinfo: typed wrappers, one per
// kind of argument.
static inline CURLcode ccurl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode ccurl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode ccurl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode ccurl_setopt_slist(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode ccurl_setopt_write_function(CURL *curl, size_t (*function)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, function);
}
static inline CURLcode ccurl_setopt_header_function(CURL *curl, size_t (*function)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, function);
}
static inline CURLcode ccurl_setopt_postfields_copy(CURL *curl, const char *data, long length) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, length);
    return curl_easy_setopt(curl, CURLOPT_COPYPOSTFIELDS, data);
}
static inline CURLcode ccurl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
