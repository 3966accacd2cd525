// Cairo draws the preview; gdk-pixbuf loads its PNG and JPEG images and librsvg its SVG images
// (librsvg-2.0's pkg-config flags carry Cairo's and gdk-pixbuf's).
#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <librsvg/rsvg.h>
// libpng's simplified API writes the pictures (no setjmp needed), with its fast setting.
#include <png.h>
