# Livery: make run | make demo | make test | make unit | make bench | make fuzz | make install PREFIX=...
SHELL := /bin/bash
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
# systemd's user unit search path has $(PREFIX)/share/systemd/user for ~/.local, /usr/local and
# /usr alike (`systemd-analyze --user unit-paths`); ~/.local/lib/systemd/user is not on it.
# uninstall also removes a unit an older version installed in $(PREFIX)/lib/systemd/user.
SYSTEMD_USER_DIR ?= $(DATADIR)/systemd/user
SWIFT ?= $(shell command -v swift || echo /opt/swift/usr/bin/swift)
CONFIG ?= debug
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Debian packages: build (libdbus, libyaml, Cairo and librsvg for `livery preview`), run (dbus-daemon), and the outside clients the
# end-to-end tests drive the daemon with (gdbus, busctl, dbus-send, dbus-monitor, python3-dbus,
# neovim and vim for the vim plugin, kitty (drawn with Mesa's software OpenGL under Xvfb) and tmux
# for theirs, gsettings with dconf for the GNOME plugin, xdg-desktop-portal), and
# what the on-screen tests need: an X server of their own (Xvfb), screenshots (xwd from x11-apps,
# xwdtopnm and pngtopnm from netpbm), GTK 3, GTK 4 and libadwaita windows through python3-gi
# (gir1.2-gtk-3.0, gir1.2-gtk-4.0, gir1.2-adw-1), an XSETTINGS manager for the gtk plugin
# (xsettingsd) and Chromium to open `livery gallery`'s page. WebP images are read through
# gdk-pixbuf's webp-pixbuf-loader. Debian's desktop-base holds the real wallpapers `livery generate`'s tests read.
# The feh and swaybg wallpaper plugins run the real programs: feh under Xvfb, swaybg under sway
# (wlroots' headless backend; weston has no wlr-layer-shell) with grim for its screenshots. The
# desktop programs' plugins are tested with the programs too: waybar and mako under that sway,
# rofi, i3 and dunst under Xvfb, and Qt 5 and Qt 6 applications (PyQt5, PyQt6) through qt5ct
# and qt6ct.
BUILD_PACKAGES := libdbus-1-dev libyaml-dev libcairo2-dev librsvg2-dev webp-pixbuf-loader pkg-config
RUN_PACKAGES := dbus-daemon dbus-bin
# GTK 4's headers build livery-demo (`make demo`), and `make test`, which builds every target.
DEMO_PACKAGES := libgtk-4-dev
TEST_PACKAGES := libglib2.0-bin systemd python3 python3-dbus python3-gi python3-venv xdg-desktop-portal neovim vim \
  dconf-service dconf-gsettings-backend gsettings-desktop-schemas xvfb x11-apps netpbm gir1.2-gtk-3.0 \
  gir1.2-gtk-4.0 gir1.2-adw-1 xsettingsd chromium \
  kitty tmux alacritty foot weston fonts-dejavu-core x11-xserver-utils xterm desktop-base feh swaybg sway grim \
  waybar mako-notifier rofi i3-wm dunst qt5ct qt6ct python3-pyqt5 python3-pyqt6 $(DEMO_PACKAGES)
# The programs of the shipped bar, launcher and tool plugins, each run by its test.
TEST_PACKAGES += polybar fzf btop zathura fuzzel wofi sway-notification-center gnome-terminal konsole cava bspwm
# plasma-apply-colorscheme and kreadconfig5 for the plasma-colors plugin, without plasma-workspace's
# recommends (a whole Plasma desktop, 2 GB).
TEST_PACKAGES_LEAN := plasma-workspace libkf5config-bin

.PHONY: all build build-dir run demo test unit deps deps-demo deps-test install uninstall clean format lint bench bench-profile bench-profile-daemon fuzz fuzz-build

all: build

# The shell commands that install those of the Debian packages $(1) that are missing (apt-get
# update first, as a fresh machine needs).
install-missing = missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

deps:
	@$(call install-missing,$(BUILD_PACKAGES) $(RUN_PACKAGES))

deps-demo: deps
	@$(call install-missing,$(DEMO_PACKAGES))

# pywal from PyPI in a virtual environment of its own, a client nobody here wrote: the tests
# load the pywal plugin's colors.json with pywal's own reader. materialyoucolor (a Python port of
# material-color-utilities) computes Tests/Fixtures/material/oracle.json (scripts/material-oracle.py).
TEST_VENV := .build/test-venv
PYWAL_VERSION := 3.8.15
MATERIALYOUCOLOR_VERSION := 3.0.4

deps-test: deps
	@$(call install-missing,$(TEST_PACKAGES))
	@$(subst apt-get install -y,apt-get install -y --no-install-recommends,$(call install-missing,$(TEST_PACKAGES_LEAN)))
	@$(TEST_VENV)/bin/python -c 'import pywal, materialyoucolor' 2>/dev/null || { echo "installing pywal $(PYWAL_VERSION) and materialyoucolor $(MATERIALYOUCOLOR_VERSION) into $(TEST_VENV)"; \
	  /usr/bin/python3 -m venv $(TEST_VENV) && $(TEST_VENV)/bin/pip install -q pywal==$(PYWAL_VERSION) materialyoucolor==$(MATERIALYOUCOLOR_VERSION); }

# SwiftPM locks a build directory with files in $TMPDIR named after its path
# (/tmp/_home_me_livery_.build.lock), which no other user may open once one user made them: after
# a build as root, every other user's `swift build` of the tree stopped ("invalid access to …
# .build.lock"). So every `swift build` here keeps its locks and temporary files in .build/tmp,
# which belongs to whoever owns the rest of .build.
SWIFT_BUILD = mkdir -p .build/tmp && TMPDIR="$(CURDIR)/.build/tmp" $(SWIFT) build

# A build directory made by another user (a build as root) cannot be written: say so, and the one
# step that gives it back, before SwiftPM fails on a read-only database.
build-dir:
	@f=$$(find .build -maxdepth 2 ! -writable -print -quit 2>/dev/null); if [ -n "$$f" ]; then \
	  echo "make: $$f is $$(stat -c %U "$$f")'s, not $$(id -un)'s: this tree was built as $$(stat -c %U "$$f")." >&2; \
	  echo "  As root, give .build to $$(id -un) once: chown -R $$(id -un): $(CURDIR)/.build" >&2; exit 1; fi

build: build-dir deps
	$(SWIFT_BUILD) -c $(CONFIG) --product liveryd
	$(SWIFT_BUILD) -c $(CONFIG) --product livery
	$(SWIFT_BUILD) -c $(CONFIG) --product livery-cli
	$(SWIFT_BUILD) -c $(CONFIG) --product livery-svg
	$(SWIFT_BUILD) -c $(CONFIG) --product livery-picture

# The daemon with the shipped themes: on the session bus when there is one, otherwise on a
# private bus whose address is printed.
run: build
	@scripts/run-daemon.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" themes

# livery-demo, the GTK 4 window of the sample screen following every switch (the README's
# "Example client: livery-demo"), against liveryd on the session bus, or one started as `make
# run` starts it. `make run` and `make build` neither build nor need GTK.
demo: build deps-demo
	$(SWIFT_BUILD) -c $(CONFIG) --product livery-demo
	@scripts/run-demo.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)" themes

# How many tests run at once: most end-to-end tests wait on the programs they drive, so more
# than the cores.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))

# Unit tests and end-to-end tests (liveryd on private buses, driven by livery, gdbus, busctl,
# dbus-send, dbus-monitor and python3-dbus), all under a private session bus, several at once
# (scripts/test.sh says which run one at a time and why); the summary line closes the output.
test: build-dir deps-test
	$(SWIFT_BUILD) --build-tests
	@dbus-run-session -- scripts/test.sh $(SWIFT) $(TEST_WORKERS) all

# The unit tests alone: every test target but EndToEndTests (the outside tools some of them
# compare with, gdbus, busctl and python3 among them, are test packages too).
unit: build-dir deps-test
	$(SWIFT_BUILD) --build-tests
	@scripts/test.sh $(SWIFT) $(TEST_WORKERS) unit

# Installs the release build.
install: CONFIG = release
install: build
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/livery/themes \
	  $(DESTDIR)$(DATADIR)/dbus-1/services $(DESTDIR)$(SYSTEMD_USER_DIR)
	install -m 755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/liveryd" $(DESTDIR)$(BINDIR)/liveryd
	install -m 755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/livery" $(DESTDIR)$(BINDIR)/livery
	install -m 755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/livery-cli" $(DESTDIR)$(BINDIR)/livery-cli
	install -m 755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/livery-svg" $(DESTDIR)$(BINDIR)/livery-svg
	install -m 755 "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/livery-picture" $(DESTDIR)$(BINDIR)/livery-picture
	cp -R themes/. $(DESTDIR)$(DATADIR)/livery/themes/
	install -d $(DESTDIR)$(DATADIR)/livery/plugins
	cp -R plugins/. $(DESTDIR)$(DATADIR)/livery/plugins/
	install -d $(DESTDIR)$(DATADIR)/doc/livery $(DESTDIR)$(DATADIR)/xdg-desktop-portal/portals
	install -m 644 README.md systemd/portals.conf $(DESTDIR)$(DATADIR)/doc/livery/
	install -m 644 systemd/livery.portal $(DESTDIR)$(DATADIR)/xdg-desktop-portal/portals/livery.portal
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@DATADIR@|$(DATADIR)|g' systemd/livery.service > $(DESTDIR)$(SYSTEMD_USER_DIR)/livery.service
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/org.livery.Livery1.service > $(DESTDIR)$(DATADIR)/dbus-1/services/org.livery.Livery1.service
	@echo "installed to $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/liveryd $(DESTDIR)$(BINDIR)/livery $(DESTDIR)$(BINDIR)/livery-cli \
	  $(DESTDIR)$(BINDIR)/livery-svg \
	  $(DESTDIR)$(BINDIR)/livery-picture \
	  $(DESTDIR)$(SYSTEMD_USER_DIR)/livery.service $(DESTDIR)$(PREFIX)/lib/systemd/user/livery.service \
	  $(DESTDIR)$(DATADIR)/dbus-1/services/org.livery.Livery1.service \
	  $(DESTDIR)$(DATADIR)/xdg-desktop-portal/portals/livery.portal
	rm -rf $(DESTDIR)$(DATADIR)/livery/themes $(DESTDIR)$(DATADIR)/livery/plugins $(DESTDIR)$(DATADIR)/doc/livery

# Benchmarks (bench/README.md): generated workloads through Livery's indexed cascade, its naive
# matcher and the no-rule floor, the same sheet and trees through cssselect2 + tinycss2 (in
# bench/.venv) and through headless Chromium's Blink (bench/blink/, over the DevTools protocol; the
# chromium package installed when missing), a cross-check of every winner (and of a sample of
# Blink's computed values), sheet parse and compile time, and liveryd's
# start-up, memory and Resolve/Ping rates on a private bus; the client's start, `livery get` and
# `livery set` against `dconf read` and `dconf write` (bench/client/, dconf installed when
# missing; bench/out/client.md); livery build of the tinted fixture
# repositories against Debian's pystache (bench/tinted/); a switch carried out to 20 plugin
# exports against pywal's `wal --theme` (bench/plugins/); the fan-out to 1,000 watchers against dconf
# and `SetTheme` round trips of a switch back (bench/fanout/); a switch to five running programs
# (kitty, alacritty, neovim, GTK 4, tmux) against `wal --theme` (bench/programs/); `livery gallery` of 300 themes against the
# same pictures drawn with pycairo (bench/gallery/); `livery generate` on a 5120x2880 JPEG and PNG against pywal's
# `wal -i` (ImageMagick installed when missing) and the materialyoucolor pipeline, with the full
# decode as the floor (bench/generate/). Writes bench/results.md and .json;
# fails when the cross-check finds a difference.
BENCH_VENV := bench/.venv
bench: deps
	$(SWIFT_BUILD) -c release --product liveryd
	$(SWIFT_BUILD) -c release --product livery-bench
	bench/fanout/floor/build.sh
	@test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV)
	@$(BENCH_VENV)/bin/python -c 'import cssselect2, tinycss2, pywal, materialyoucolor, PIL' 2>/dev/null || \
	  $(BENCH_VENV)/bin/pip install -q -r bench/requirements.txt
	@mkdir -p bench/out
	@set -o pipefail; "$$($(SWIFT) build -c release --show-bin-path)/livery-bench" --root . \
	  --revision "commit $$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- Sources Package.swift || echo ', with uncommitted changes in Sources')" \
	  2>&1 | tee bench/out/bench.log
	@command -v chromium >/dev/null || { echo "installing: chromium"; $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium; }
	@set -o pipefail; /usr/bin/python3 bench/blink/blink_bench.py --out bench/out 2>&1 | tee bench/out/blink.log
	$(SWIFT_BUILD) -c release --product livery
	$(SWIFT_BUILD) -c release --product livery-cli
	$(SWIFT_BUILD) -c release --product livery-svg
	@$(call install-missing,dconf-cli dconf-service)
	-/usr/bin/python3 bench/client/run.py "$$($(SWIFT) build -c release --show-bin-path)" --out bench/out/client.md
	bench/fanout/run.sh "$$($(SWIFT) build -c release --show-bin-path)"
	-/usr/bin/python3 bench/fanout/switchback.py --build "this=$$($(SWIFT) build -c release --show-bin-path)" \
	  --rounds 3 --out bench/out/switchback.md
	-python3 bench/hostile/run.py "$$($(SWIFT) build -c release --show-bin-path)/livery" --out bench/out
	-/usr/bin/python3 bench/hostile/daemon.py "$$($(SWIFT) build -c release --show-bin-path)/liveryd" --out bench/out
	-/usr/bin/python3 bench/hostile/watch_churn.py "$$($(SWIFT) build -c release --show-bin-path)/liveryd" --out bench/out
	@/usr/bin/python3 -c 'import pystache, yaml' 2>/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-pystache python3-yaml; }
	-/usr/bin/python3 bench/tinted/run.py "$$($(SWIFT) build -c release --show-bin-path)/livery"
	-/usr/bin/python3 bench/plugins/run.py "$$($(SWIFT) build -c release --show-bin-path)"
	@$(call install-missing,kitty alacritty tmux neovim xvfb xsettingsd python3-gi gir1.2-gtk-4.0)
	-/usr/bin/python3 bench/programs/run.py "$$($(SWIFT) build -c release --show-bin-path)"
	@/usr/bin/python3 -c 'import cairo' 2>/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-cairo; }
	-/usr/bin/python3 bench/gallery/run.py "$$($(SWIFT) build -c release --show-bin-path)"
	@$(call install-missing,imagemagick desktop-base python3-gi gir1.2-gdkpixbuf-2.0)
	-/usr/bin/python3 bench/generate/run.py "$$($(SWIFT) build -c release --show-bin-path)"

# Callgrind profile of the indexed cascade on workload (a): one run, collecting only inside
# resolveForest (the timed walk); the top functions go to bench/out/callgrind.txt.
bench-profile: deps
	$(SWIFT_BUILD) -c release --product livery-bench
	@command -v valgrind >/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	@mkdir -p bench/out
	valgrind --tool=callgrind --callgrind-out-file=bench/out/callgrind.out --toggle-collect='*resolveForest*' \
	  "$$($(SWIFT) build -c release --show-bin-path)/livery-bench" --root . --only indexed-a --runs 1
	callgrind_annotate --inclusive=no bench/out/callgrind.out | $(SWIFT) demangle --simplified > bench/out/callgrind.txt
	callgrind_annotate --inclusive=yes bench/out/callgrind.out | $(SWIFT) demangle --simplified > bench/out/callgrind-inclusive.txt
	@head -n 45 bench/out/callgrind.txt

# Callgrind profile of liveryd (start-up with 300 themes, then 2,000 Ping and 2,000 Resolve
# calls), inclusive costs in bench/out/callgrind-daemon.txt: where a Resolve round trip goes.
# Then the instructions liveryd and the C floor execute per Resolve and per Ping
# (bench/fanout/floor/percall.py; the dumps in bench/out/callgrind-percall-*.out): the figures
# to compare builds by.
bench-profile-daemon: deps
	$(SWIFT_BUILD) -c release --product liveryd
	$(SWIFT_BUILD) -c release --product livery-bench
	bench/fanout/floor/build.sh
	@command -v valgrind >/dev/null || { $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq valgrind; }
	@mkdir -p bench/out
	"$$($(SWIFT) build -c release --show-bin-path)/livery-bench" --root . --only bus --runs 1 --calls 2000 \
	  --daemon-wrapper "valgrind --tool=callgrind --callgrind-out-file=bench/out/callgrind-daemon.out"
	callgrind_annotate --inclusive=yes bench/out/callgrind-daemon.out | $(SWIFT) demangle --simplified > bench/out/callgrind-daemon.txt
	@head -n 60 bench/out/callgrind-daemon.txt | cut -c1-200
	/usr/bin/python3 bench/fanout/floor/percall.py 2000 "$$($(SWIFT) build -c release --show-bin-path)/liveryd" floor

format:
	$(SWIFT) format -i -r Sources Tests Fuzz Package.swift

# swift format's lint with every rule an error (.swift-format holds the settings), then the size
# limits of the product code (scripts/check-limits.py: files, functions); CI runs it.
lint:
	$(SWIFT) format lint --strict -r Sources Tests Fuzz Package.swift
	/usr/bin/python3 scripts/check-limits.py

clean:
	rm -rf .build

# Fuzzing (Fuzz/README.md): each target of Fuzz/ built with libFuzzer and AddressSanitizer (its
# LeakSanitizer included), LiveryCore's sources compiled into it so that it reaches internal
# APIs, then run for FUZZ_SECONDS each, one after the other, on a working corpus in
# Fuzz/.build/corpus seeded from Fuzz/corpus and, for the bundle target, the shipped themes'
# sheets (copied from themes/ at each run, not kept twice in the tree). Crashes, leaks and timeouts are written to
# Fuzz/artifacts/ and stop the run.
FUZZ_TARGETS ?= bundle scheme paths values itermcolors colorsjson kdecolors mustache manifest config outputs generate slideshow pywal
FUZZ_SECONDS ?= 60
FUZZ_FLAGS ?=
SWIFTC ?= $(dir $(SWIFT))swiftc
# Every LiveryCore source but the template data, the one file that imports the Mustache module
# (the targets build LiveryCore as one module of their own, and none renders templates), and
# `printable`, which forwards to the LiveryText module and which no LiveryCore source calls.
FUZZ_CORE := $(filter-out Sources/LiveryCore/Templates/ThemeTemplateData.swift Sources/LiveryCore/Sheet/Printable.swift,$(shell find Sources/LiveryCore -name '*.swift' | sort))

MUSTACHE_SOURCES := $(shell find Sources/Mustache -name '*.swift' | sort)

fuzz-build: $(FUZZ_TARGETS:%=Fuzz/.build/fuzz-%)

# The mustache target compiles the Mustache target's sources alone (it needs no LiveryCore).
Fuzz/.build/fuzz-mustache: Fuzz/mustache.swift $(MUSTACHE_SOURCES)
	@mkdir -p Fuzz/.build
	$(SWIFTC) -sanitize=fuzzer,address -parse-as-library -module-name MustacheFuzz -O -g \
	  $(MUSTACHE_SOURCES) $< -o $@

# The slideshow target compiles the GNOME slideshow reader alone (Foundation and GLib's GMarkup).
Fuzz/.build/fuzz-slideshow: Fuzz/slideshow.swift Sources/LiveryPreview/GnomeSlideshow.swift
	@mkdir -p Fuzz/.build
	$(SWIFTC) -sanitize=fuzzer,address -parse-as-library -module-name SlideshowFuzz -O -g \
	  -I Sources/CCairo $(patsubst %,-Xcc %,$(shell pkg-config --cflags librsvg-2.0)) \
	  Sources/LiveryPreview/GnomeSlideshow.swift $< -o $@

# The generate target adds LiveryPreview's sources (gdk-pixbuf, Cairo, librsvg), built into the
# same module: their `import LiveryCore` finds an empty module of that name, the types are the
# target's own.
PREVIEW_SOURCES := $(shell find Sources/LiveryPreview -name '*.swift' | sort)
Fuzz/.build/fuzz-generate: Fuzz/generate.swift Fuzz/common.swift $(FUZZ_CORE) $(PREVIEW_SOURCES)
	@mkdir -p Fuzz/.build/stub
	@echo > Fuzz/.build/stub/empty.swift
	$(SWIFTC) -emit-module -parse-as-library -module-name LiveryCore -o Fuzz/.build/stub/LiveryCore.swiftmodule \
	  Fuzz/.build/stub/empty.swift
	$(SWIFTC) -sanitize=fuzzer,address -parse-as-library -module-name LiveryFuzz -package-name Livery -O -g \
	  -I Fuzz/.build/stub -I Sources/CYAML -I Sources/CCairo \
	  $(patsubst %,-Xcc %,$(shell pkg-config --cflags librsvg-2.0 libpng)) -lyaml \
	  $(FUZZ_CORE) $(PREVIEW_SOURCES) Fuzz/common.swift $< -o $@

Fuzz/.build/fuzz-%: Fuzz/%.swift Fuzz/common.swift $(FUZZ_CORE)
	@mkdir -p Fuzz/.build
	$(SWIFTC) -sanitize=fuzzer,address -parse-as-library -module-name LiveryFuzz -package-name Livery -O -g \
	  -I Sources/CYAML -lyaml $(FUZZ_CORE) Fuzz/common.swift $< -o $@

fuzz: deps fuzz-build
	@mkdir -p Fuzz/artifacts
	@mkdir -p Fuzz/.build/seed/bundle
	@for d in themes/*/; do test -f $$d/theme.css && cp $$d/theme.css Fuzz/.build/seed/bundle/$$(basename $$d).css; done; true
	@python3 Fuzz/mustache_seeds.py Fuzz/.build/seed/mustache
	@set -e; for t in $(FUZZ_TARGETS); do mkdir -p Fuzz/.build/corpus/$$t Fuzz/.build/seed/$$t; echo "== fuzz $$t ($(FUZZ_SECONDS) s)"; \
	  case $$t in bundle|itermcolors|generate) len=16384;; scheme|kdecolors) len=8192;; *) len=4096;; esac; \
	  SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=Fuzz/lsan.supp \
	  Fuzz/.build/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$len -timeout=5 \
	    -rss_limit_mb=2048 -detect_leaks=1 -dict=Fuzz/$$t.dict -print_final_stats=1 \
	    -artifact_prefix=Fuzz/artifacts/$$t- $(FUZZ_FLAGS) Fuzz/.build/corpus/$$t Fuzz/corpus/$$t Fuzz/.build/seed/$$t; done
