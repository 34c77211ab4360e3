/* The floor for road-book rendering: a plain C program drawing N road-book rows (three boxes, a
 * tulip of five strokes, two short Pango texts, a CAP tag) into A5 PDF pages, six rows a page,
 * the simplest rows of a road book (CONTRIBUTING.md, benchmarks). roadbook's renderer is compared with it by scripts/bench.sh.
 * Build: cc -O2 floor.c $(pkg-config --cflags --libs pangocairo) -o floor
 * Run:   ./floor ROWS OUT.pdf   (prints seconds and peak memory) */
#include <pango/pangocairo.h>
#include <cairo-pdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void text(cairo_t *cr, PangoLayout *layout, const char *s, double x, double y, double w) {
    pango_layout_set_text(layout, s, -1);
    pango_layout_set_width(layout, (int)(w * PANGO_SCALE));
    cairo_move_to(cr, x, y);
    pango_cairo_show_layout(cr, layout);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor ROWS OUT.pdf\n"); return 64; }
    int rows = atoi(argv[1]);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const double W = 419.53, H = 595.28, M = 22.68, RH = 81, top = 65.2;
    cairo_surface_t *s = cairo_pdf_surface_create(argv[2], W, H);
    cairo_t *cr = cairo_create(s);
    PangoContext *pc = pango_cairo_create_context(cr);
    pango_cairo_context_set_resolution(pc, 72);
    PangoLayout *big = pango_layout_new(pc), *small = pango_layout_new(pc);
    PangoFontDescription *fb = pango_font_description_from_string("DejaVu Sans Bold 20");
    PangoFontDescription *fs = pango_font_description_from_string("DejaVu Sans 10");
    pango_layout_set_font_description(big, fb);
    pango_layout_set_font_description(small, fs);
    char buf[64];
    for (int i = 0; i < rows; i++) {
        int slot = i % 6;
        double y = top + slot * RH, w = W - 2 * M, dw = w * 0.25, tw = w * 0.37;
        cairo_set_line_width(cr, 0.8);
        cairo_rectangle(cr, M, y, dw, RH); cairo_rectangle(cr, M + dw, y, tw, RH);
        cairo_rectangle(cr, M + dw + tw, y, w - dw - tw, RH); cairo_stroke(cr);
        double cx = M + dw + tw / 2, cy = y + RH * 0.6;
        cairo_set_line_width(cr, 2.5);
        cairo_move_to(cr, cx, y + RH - 6); cairo_line_to(cr, cx, cy);
        cairo_line_to(cr, cx + 25, cy - 20); cairo_stroke(cr);
        cairo_move_to(cr, cx, cy); cairo_line_to(cr, cx - 30, cy - 5); cairo_stroke(cr);
        cairo_move_to(cr, cx, cy); cairo_line_to(cr, cx, y + 8); cairo_stroke(cr);
        cairo_arc(cr, cx, y + RH - 6, 3, 0, 6.2832); cairo_fill(cr);
        snprintf(buf, sizeof buf, "%.2f", i * 1.2345);
        text(cr, big, buf, M + 4, y + 20, dw - 8);
        snprintf(buf, sizeof buf, "Turn right onto the gravel track %d", i + 1);
        text(cr, small, buf, M + dw + tw + 4, y + 4, w - dw - tw - 8);
        cairo_set_source_rgb(cr, 1, 0.84, 0); cairo_rectangle(cr, M + dw + tw + 4, y + RH - 18, 36, 14);
        cairo_fill(cr); cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof buf, "C.%03d", (i * 37) % 360);
        text(cr, small, buf, M + dw + tw + 6, y + RH - 18, 36);
        if (slot == 5 || i == rows - 1) cairo_show_page(cr);
    }
    g_object_unref(big); g_object_unref(small); g_object_unref(pc);
    pango_font_description_free(fb); pango_font_description_free(fs);
    cairo_destroy(cr); cairo_surface_finish(s); cairo_surface_destroy(s);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* Peak memory from VmHWM: ru_maxrss would include the memory of the process that started us. */
    double peak = 0; char line[256]; FILE *st = fopen("/proc/self/status", "r");
    while (st && fgets(line, sizeof line, st)) if (sscanf(line, "VmHWM: %lf", &peak) == 1) break;
    if (st) fclose(st);
    printf("%.3f %.1f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, peak / 1024.0);
    return 0;
}
