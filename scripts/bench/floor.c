/* The floor for road-book rendering: a plain C program drawing N road-book rows into A5 PDF pages,
 * six rows a page, with what each row of roadbook-bench's book has on the a5 template
 * (Templates/a5.json): the three framed cells; the row number; the odometer, its hundredths set
 * apart in a smaller size and centred; the partial distance in its framed corner box; a tulip whose
 * tarmac roads are double lines (a black stroke, then a white one inside) with the rider's dot, the
 * arrowhead and a side track; the instruction wrapped in the notes cell; the CAP on a yellow tag with
 * rounded corners; the danger marks (the highest framed in red); a waypoint type tag and a marker on
 * every seventh row; and on every page the header (title, rally, units, rule) and the footer.
 * Texts are measured (to centre and align them) and drawn with Pango in DejaVu Sans, as roadbook
 * does; it lays out nothing else and checks nothing. roadbook's renderer is compared with it by
 * scripts/bench.sh (CONTRIBUTING.md, benchmarks).
 * Build: cc -O2 floor.c $(pkg-config --cflags --libs pangocairo) -lm -o floor
 * Run:   ./floor ROWS OUT.pdf   (prints seconds and peak memory) */
#include <pango/pangocairo.h>
#include <cairo-pdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum align { LEFT, CENTRE, RIGHT };

static PangoLayout *layout;

/* Draws `s` (Pango markup when `markup`) in `font`, wrapped at `w`, aligned in the box x, y, w, h
 * (vertically centred when `middle`, else from the top). */
static void text(cairo_t *cr, PangoFontDescription *font, const char *s, int markup, double x, double y, double w,
                 double h, enum align align, int middle) {
    pango_layout_set_font_description(layout, font);
    pango_layout_set_width(layout, (int)(w * PANGO_SCALE));
    if (markup) pango_layout_set_markup(layout, s, -1); else pango_layout_set_text(layout, s, -1);
    int tw, th;
    pango_layout_get_size(layout, &tw, &th);
    double dw = (double)tw / PANGO_SCALE, dh = (double)th / PANGO_SCALE;
    double dx = align == CENTRE ? (w - dw) / 2 : align == RIGHT ? w - dw : 0;
    cairo_move_to(cr, x + dx, middle ? y + (h - dh) / 2 : y);
    pango_cairo_show_layout(cr, layout);
}

static void rounded(cairo_t *cr, double x, double y, double w, double h, double r) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
    cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

static void line(cairo_t *cr, double x0, double y0, double x1, double y1, double x2, double y2, double width) {
    cairo_set_line_width(cr, width);
    cairo_move_to(cr, x0, y0); cairo_line_to(cr, x1, y1); cairo_line_to(cr, x2, y2); cairo_stroke(cr);
}

/* A tulip in the square of side `s` centred on cx, cy: the entry from the bottom, the exit at
 * `angle` degrees (a double line when `tarmac`), a side track at ±70 degrees. */
static void tulip(cairo_t *cr, double cx, double cy, double s, double angle, int tarmac) {
    double jx = cx, jy = cy + 0.06 * s, a = angle * M_PI / 180, side = (angle > 0 ? -70 : 70) * M_PI / 180;
    double ex = sin(a), ey = -cos(a), tip = 0.42 * s, arrow = 0.13 * s;
    double dotY = jy + 0.40 * s - 0.06 * s;
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_source_rgb(cr, 0, 0, 0);
    line(cr, jx, jy, jx, jy, jx + sin(side) * 0.32 * s, jy - cos(side) * 0.32 * s, 0.026 * 0.62 * s);
    double endX = jx + ex * (tip - arrow), endY = jy + ey * (tip - arrow);
    line(cr, jx, dotY, jx, jy, endX, endY, (tarmac ? 0.08 : 0.055) * s);
    if (tarmac) {
        cairo_set_source_rgb(cr, 1, 1, 1);
        line(cr, jx, dotY, jx, jy, endX, endY, 0.044 * s);
        cairo_set_source_rgb(cr, 0, 0, 0);
    }
    cairo_arc(cr, jx, dotY, 0.052 * s, 0, 2 * M_PI); cairo_fill(cr);
    double nx = -ey * 0.075 * s, ny = ex * 0.075 * s;
    cairo_move_to(cr, jx + ex * tip, jy + ey * tip);
    cairo_line_to(cr, endX + nx, endY + ny); cairo_line_to(cr, endX - nx, endY - ny);
    cairo_close_path(cr); cairo_fill(cr);
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor ROWS OUT.pdf\n"); return 64; }
    int rows = atoi(argv[1]), pages = (rows + 5) / 6;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const double mm = 72 / 25.4, W = 148 * mm, H = 210 * mm, M = 8 * mm, P = 1 * mm, RH = 28.6 * mm;
    const double top = M + 15 * mm, w = W - 2 * M, dw = w * 0.25, tw = w * 0.37, nw = w - dw - tw;
    cairo_surface_t *surface = cairo_pdf_surface_create(argv[2], W, H);
    cairo_t *cr = cairo_create(surface);
    PangoContext *pc = pango_cairo_create_context(cr);
    pango_cairo_context_set_resolution(pc, 72);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(pc, options);
    layout = pango_layout_new(pc);
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    PangoFontDescription *title = pango_font_description_from_string("DejaVu Sans Bold 14"),
        *info = pango_font_description_from_string("DejaVu Sans 8.5"),
        *number = pango_font_description_from_string("DejaVu Sans Bold 7.5"),
        *odometer = pango_font_description_from_string("DejaVu Sans Bold 20"),
        *hundredths = pango_font_description_from_string("DejaVu Sans Bold 13"),
        *partial = pango_font_description_from_string("DejaVu Sans 9"),
        *tag = pango_font_description_from_string("DejaVu Sans Bold 8"),
        *note = pango_font_description_from_string("DejaVu Sans 10"),
        *danger = pango_font_description_from_string("DejaVu Sans Bold 12"),
        *footer = pango_font_description_from_string("DejaVu Sans 7.5");
    const char *words[] = {"Turn right onto the gravel track", "Keep left at the fork towards the pass",
                           "Straight on at crossroads", "Roundabout, 3rd exit", "Sharp left down the hairpin"};
    char buf[128], small[16];
    for (int i = 0; i < rows; i++) {
        int slot = i % 6;
        if (slot == 0) {
            cairo_set_source_rgb(cr, 1, 1, 1); cairo_paint(cr); cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_set_line_width(cr, 1.5);
            cairo_move_to(cr, M, top - 0.75); cairo_line_to(cr, W - M, top - 0.75); cairo_stroke(cr);
            text(cr, title, "Benchmark", 0, M, M, w - 40, 15 * mm / 2, LEFT, 1);
            cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
            text(cr, info, "roadbook-bench", 0, M, M + 15 * mm / 2 + 1, w - 40, 15 * mm / 2 - 4, LEFT, 0);
            cairo_set_source_rgb(cr, 0, 0, 0);
            text(cr, title, "km", 0, W - M - 40, M, 40, 15 * mm / 2, RIGHT, 1);
        }
        double y = top + slot * RH, nx = M + dw + tw;
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_set_line_width(cr, 0.8);
        cairo_rectangle(cr, M, y, dw, RH); cairo_stroke(cr);
        cairo_rectangle(cr, M + dw, y, tw, RH); cairo_stroke(cr);
        double exit = (i * 53) % 300 - 150, s = fmin(tw, RH) - 4 * P;
        tulip(cr, M + dw + tw / 2, y + RH / 2, s, exit, i % 3 != 0);
        cairo_set_source_rgb(cr, 0, 0, 0); cairo_set_line_width(cr, 0.8);
        cairo_rectangle(cr, nx, y, nw, RH); cairo_stroke(cr);
        /* The distance cell: number, odometer, partial. */
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        snprintf(buf, sizeof buf, "%d", i + 1);
        text(cr, number, buf, 0, M + P, y + P, dw / 3, 12, LEFT, 0);
        cairo_set_source_rgb(cr, 0, 0, 0);
        double km = i * 1.2345;
        snprintf(buf, sizeof buf, "%d.", (int)km);
        snprintf(small, sizeof small, "%02d", (int)round((km - (int)km) * 100) % 100);
        text(cr, odometer, buf, 0, M + P, y + 20, dw / 2 + 4, 30, RIGHT, 1);
        text(cr, hundredths, small, 0, M + P + dw / 2 + 4, y + 23, dw / 2 - 8, 30, LEFT, 1);
        cairo_set_line_width(cr, 0.8);
        cairo_rectangle(cr, M + dw / 2, y + RH - 18, dw / 2, 18); cairo_stroke(cr);
        text(cr, partial, "1.23", 0, M + dw / 2, y + RH - 18, dw / 2, 18, CENTRE, 1);
        /* The notes cell: tags, instruction, CAP, danger. */
        double textTop = y + P;
        if (i % 7 == 0) {
            cairo_set_source_rgb(cr, 0.118, 0.549, 0.227); rounded(cr, nx + P, y + P, 28.8, 13.6, 2); cairo_fill(cr);
            cairo_set_source_rgb(cr, 1, 1, 1);
            text(cr, tag, "WPV", 0, nx + P, y + P, 28.8, 13.6, CENTRE, 1);
            cairo_set_source_rgb(cr, 0, 0, 0);
            snprintf(buf, sizeof buf, "CP%d", i / 7 + 1);
            text(cr, tag, buf, 0, nx + 2 * P + 28.8, y + P, nw - 40, 13.6, LEFT, 1);
            textTop += 13.6 + P;
        }
        snprintf(buf, sizeof buf, "%s %d", words[i % 5], i + 1);
        text(cr, note, buf, 1, nx + P, textTop, nw - 2 * P, 40, LEFT, 0);
        cairo_set_source_rgb(cr, 1, 0.835, 0); rounded(cr, nx + P, y + RH - P - 16.8, 36.8, 16.8, 2.5);
        cairo_fill_preserve(cr); cairo_set_source_rgb(cr, 0, 0, 0); cairo_set_line_width(cr, 0.6); cairo_stroke(cr);
        snprintf(buf, sizeof buf, "C.%03d", (i * 37) % 360);
        text(cr, tag, buf, 0, nx + P, y + RH - P - 16.8, 36.8, 16.8, CENTRE, 1);
        if (i % 4) {
            double dx = nx + nw - P - 30;
            if (i % 4 == 3) {
                cairo_set_source_rgb(cr, 0.784, 0.063, 0.180); rounded(cr, dx, y + RH - P - 16.8, 30, 16.8, 1.5);
                cairo_set_line_width(cr, 1.6); cairo_stroke(cr);
            }
            cairo_set_source_rgb(cr, 0.784, 0.063, 0.180);
            text(cr, danger, i % 4 == 1 ? "!" : i % 4 == 2 ? "!!" : "!!!", 0, dx, y + RH - P - 16.8, 30, 16.8, CENTRE, 1);
            cairo_set_source_rgb(cr, 0, 0, 0);
        }
        if (slot == 5 || i == rows - 1) {
            cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
            snprintf(buf, sizeof buf, "page %d of %d", i / 6 + 1, pages);
            text(cr, footer, buf, 0, M, H - M - 7 * mm, w, 7 * mm, CENTRE, 0);
            cairo_show_page(cr);
        }
    }
    g_object_unref(layout); g_object_unref(pc); cairo_font_options_destroy(options);
    PangoFontDescription *fonts[] = {title, info, number, odometer, hundredths, partial, tag, note, danger, footer};
    for (size_t f = 0; f < sizeof fonts / sizeof *fonts; f++) pango_font_description_free(fonts[f]);
    cairo_destroy(cr); cairo_surface_finish(surface); cairo_surface_destroy(surface);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* Peak memory from VmHWM: ru_maxrss would include the memory of the process that started us. */
    double peak = 0; char status[256]; FILE *st = fopen("/proc/self/status", "r");
    while (st && fgets(status, sizeof status, st)) if (sscanf(status, "VmHWM: %lf", &peak) == 1) break;
    if (st) fclose(st);
    printf("%.3f %.1f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, peak / 1024.0);
    return 0;
}
