/* The floor for GPX reading: a plain C program that reads a GPX file with expat as roadbook's
 * GPXReader does (namespaces resolved, the file fed 64 KiB at a time into expat's own buffer) and
 * keeps what the reader keeps of every <trkpt>: lat, lon, <ele> and the line of its start tag, in
 * arrays that grow by doubling. It checks less than the reader (no nesting rules, no range checks,
 * no refusal of DOCTYPE), so it is the least any expat reader can cost. roadbook-bench prints the
 * reader's time beside it (scripts/bench.sh builds it).
 * Build: cc -O2 gpx-floor.c $(pkg-config --cflags --libs expat) -o gpx-floor
 * Run:   ./gpx-floor FILE.gpx   (prints seconds, peak memory in MiB and the number of points) */
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK (64 * 1024)
#define GPX11 "http://www.topografix.com/GPX/1/1"

typedef struct {
    XML_Parser parser;
    double *lat, *lon, *ele;
    long *line;
    size_t count, capacity;
    int in_point, in_ele;
    double point_lat, point_lon, point_ele;
    long point_line;
    char text[256];
    size_t text_length;
} State;

static void *grow(void *p, size_t size) {
    void *q = realloc(p, size);
    if (!q) { fprintf(stderr, "gpx-floor: out of memory\n"); exit(1); }
    return q;
}

static const char *attribute(const XML_Char **attributes, const char *name) {
    for (int i = 0; attributes[i]; i += 2) if (strcmp(attributes[i], name) == 0) return attributes[i + 1];
    return NULL;
}

static void start(void *data, const XML_Char *name, const XML_Char **attributes) {
    State *s = data;
    if (strcmp(name, GPX11 " trkpt") == 0) {
        const char *lat = attribute(attributes, "lat"), *lon = attribute(attributes, "lon");
        if (!lat || !lon) { fprintf(stderr, "gpx-floor: trkpt without lat or lon\n"); exit(1); }
        s->in_point = 1;
        s->point_lat = strtod(lat, NULL);
        s->point_lon = strtod(lon, NULL);
        s->point_ele = 0.0 / 0.0;
        s->point_line = (long)XML_GetCurrentLineNumber(s->parser);
    } else if (s->in_point && strcmp(name, GPX11 " ele") == 0) {
        s->in_ele = 1;
        s->text_length = 0;
    }
}

static void end(void *data, const XML_Char *name) {
    State *s = data;
    if (s->in_ele && strcmp(name, GPX11 " ele") == 0) {
        s->text[s->text_length] = 0;
        s->point_ele = strtod(s->text, NULL);
        s->in_ele = 0;
    } else if (s->in_point && strcmp(name, GPX11 " trkpt") == 0) {
        if (s->count == s->capacity) {
            s->capacity = s->capacity ? s->capacity * 2 : 1024;
            s->lat = grow(s->lat, s->capacity * sizeof(double));
            s->lon = grow(s->lon, s->capacity * sizeof(double));
            s->ele = grow(s->ele, s->capacity * sizeof(double));
            s->line = grow(s->line, s->capacity * sizeof(long));
        }
        s->lat[s->count] = s->point_lat;
        s->lon[s->count] = s->point_lon;
        s->ele[s->count] = s->point_ele;
        s->line[s->count] = s->point_line;
        s->count++;
        s->in_point = 0;
    }
}

static void characters(void *data, const XML_Char *bytes, int length) {
    State *s = data;
    if (!s->in_ele) return;
    if (s->text_length + (size_t)length >= sizeof s->text) { fprintf(stderr, "gpx-floor: <ele> too long\n"); exit(1); }
    memcpy(s->text + s->text_length, bytes, (size_t)length);
    s->text_length += (size_t)length;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: gpx-floor FILE.gpx\n"); return 64; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    FILE *file = fopen(argv[1], "rb");
    if (!file) { perror(argv[1]); return 1; }
    State s = {0};
    s.parser = XML_ParserCreateNS(NULL, ' ');
    XML_SetUserData(s.parser, &s);
    XML_SetElementHandler(s.parser, start, end);
    XML_SetCharacterDataHandler(s.parser, characters);
    for (;;) {
        void *buffer = XML_GetBuffer(s.parser, CHUNK);
        if (!buffer) { fprintf(stderr, "gpx-floor: out of memory\n"); return 1; }
        size_t n = fread(buffer, 1, CHUNK, file);
        if (n < CHUNK && ferror(file)) { perror(argv[1]); return 1; }
        if (XML_ParseBuffer(s.parser, (int)n, n == 0) != XML_STATUS_OK) {
            fprintf(stderr, "gpx-floor: %s at line %lu\n", XML_ErrorString(XML_GetErrorCode(s.parser)),
                    (unsigned long)XML_GetCurrentLineNumber(s.parser));
            return 1;
        }
        if (n == 0) break;
    }
    fclose(file);
    XML_ParserFree(s.parser);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* Peak memory from VmHWM: ru_maxrss would include the memory of the process that started us. */
    double peak = 0; char line[256]; FILE *st = fopen("/proc/self/status", "r");
    while (st && fgets(line, sizeof line, st)) if (sscanf(line, "VmHWM: %lf", &peak) == 1) break;
    if (st) fclose(st);
    printf("%.3f %.1f %zu\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, peak / 1024.0, s.count);
    free(s.lat); free(s.lon); free(s.ele); free(s.line);
    return 0;
}
