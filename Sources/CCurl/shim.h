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
// Sets the size first (COPYPOSTFIELDS copies that many bytes, so the body may hold NUL bytes);
// the first failing status is returned.
static inline CURLcode ccurl_setopt_postfields_copy(CURL *curl, const char *data, long length) {
    CURLcode code = curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(curl, CURLOPT_COPYPOSTFIELDS, data);
}
// Called during a transfer (at least about once a second, even when idle); a non-zero return
// aborts it with CURLE_ABORTED_BY_CALLBACK. Needs CURLOPT_NOPROGRESS 0.
static inline CURLcode ccurl_setopt_xferinfo_function(CURL *curl,
    int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, function);
}
// CURL_GLOBAL_ALL is a macro built from other macros; one typed call instead.
static inline CURLcode ccurl_global_init_all(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}
static inline CURLcode ccurl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
