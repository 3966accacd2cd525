import Foundation

/// The sub-commands of `livery` with their usage text (the README's "The client").
enum Command: String, CaseIterable {
    case list, get, set, toggle, dark, light, resolve, explain, watch, check, palette, reload, status, build,
        export, plugins, sun, schedule, preview, gallery, generate

    var usage: String {
        switch self {
        case .list:
            "livery list [--json]\n\nLists the installed themes: id, name, variant, format; '*' marks the active one, '!' one with errors."
        case .get:
            "livery get [--variant] [--json]\n\nPrints the active theme's id; with --variant, its variant (light or dark)."
        case .set:
            "livery set ID\n\nValidates, activates and saves theme ID. Fails (exit 1) and changes nothing when ID is unknown or has errors."
        case .resolve:
            "livery resolve PATH [PROPERTY...] [--app ID] [--json]\n\nResolves properties of the component at PATH (e.g. Window/NavigationBar/BarButtonItem:highlighted)\nin the active theme. With one PROPERTY prints just its value; otherwise 'property value' lines for\nthe given properties, or for every property of the type when none is given."
        case .explain:
            "livery explain PATH PROPERTY [--app ID] [--json]\n\nShows every declaration that matched the component for PROPERTY, in cascade order (the\nwinner last, marked '=>'), with its origin file:line:col, selector, layer and specificity, and\nwhy each loser lost. When none matched, says whether the value was inherited (from which\ncontainer) or is the schema's initial value."
        case .watch:
            "livery watch [PATH... [--property P]... [--app ID]] [--json]\n\nWithout PATH: prints each ThemeChanged signal as it arrives ('ThemeChanged ID SERIAL').\nWith PATHs: watches those components (a match rule per path, then Watch) and prints each change\nof their properties (all, or the --property ones) as it arrives ('SERIAL PATH PROPERTY VALUE');\nwith --json one object per line, the first holding the serial and the current values, then one\nper Changed signal with its path, app, serial and values. Runs until interrupted; follows a daemon that replaces\nliveryd (liveryd --replace), and exits 1 with a message when liveryd leaves the bus or the bus\ngoes away."
        case .toggle:
            "livery toggle\n\nSwitches to the theme of the other variant and prints its id: the light or dark theme of\n~/.config/livery/config.yaml, else the active theme's declared light-variant or dark-variant,\nelse by name (x-dark <-> x-light, x-mocha <-> x-latte, x-night <-> x-day, x <-> x-dawn, x <-> x-light ...;\nthe README's \"Light and dark\")."
        case .dark:
            "livery dark\n\nSwitches to the dark theme (found as 'livery toggle' finds it) and prints its id; nothing\nchanges when the active theme is dark already."
        case .light:
            "livery light\n\nSwitches to the light theme (found as 'livery toggle' finds it) and prints its id; nothing\nchanges when the active theme is light already."
        case .check:
            "livery check BUNDLE... [--warnings] [--themes-dir DIR]... [--schema FILE]\n\nChecks theme bundles (directories, .css files, base16/base24 .yaml, .itermcolors, colors.json or\nKDE .colors schemes) without a daemon.\nPrints every error as file:line:col with the line and a caret; exits 1 if there is any. Parent\nthemes named by 'inherits' are looked up next to the bundle, in each --themes-dir and on the\ntheme search path. With --warnings also reports rules that can never win and unused\n@define-color names (warnings alone do not fail the check)."
        case .palette:
            "livery palette ID... [--themes-dir DIR]... [--schema FILE] [--json]\n\nPrints each theme's palette after import and inheritance, without a daemon: one 'name #rrggbbaa'\nline per colour (several themes: each headed by 'ID:'); with --json one flat object per theme\n({\"name\": \"#rrggbbaa\"}), a line each. ID is a theme id or alias (base16-ID, base24-ID) found in\neach --themes-dir and on the theme search path, or the path of a bundle or scheme file."
        case .build:
            "livery build REPO... [--themes-dir DIR]... [--out DIR]\n\nRenders each tinted-theming template repository (REPO/templates/config.yaml and its .mustache\nfiles) for every base16 and base24 scheme found under each --themes-dir (to any depth), or on the\ntheme search path when none is given, each to the file its entry's 'filename' (or legacy\n'extension' and 'output') names, under --out (several repositories: --out/NAME, NAME the\nrepository directory's name) or else REPO. The schemes are read once for all. Fails, writing\nnothing, when two outputs would share a file."
        case .export:
            "livery export ID TEMPLATE [--themes-dir DIR]...\n\nRenders the Mustache file TEMPLATE for installed theme ID (a base16 or base24 scheme, or a theme\ndefining @define-color base00...base0F) to standard output, with the tinted-theming variables."
        case .preview:
            "livery preview ID [-o FILE.png] [--size WxH] [--app ID] [--themes-dir DIR]...\n\nDraws the sample screen (a navigation bar, segmented control, progress view, slider, switches,\nactivity indicator, table, buttons in each state, an overlay and a tab bar) with theme ID's\nresolved values into a PNG, without a daemon: FILE (- for standard output), or ID.png in the\ncurrent directory (default size 360x640 pixels; the screen is scaled to fit WxH). ID is found as 'livery palette'\nfinds it. A theme with errors gives its diagnostics and no picture (exit 1); an image that cannot\nbe drawn is warned about and left out."
        case .gallery:
            "livery gallery DIR [--size WxH] [--themes-dir DIR]...\n\nWrites DIR/ID.png (as 'livery preview' draws it) for every installed theme, and DIR/index.html\nwith each theme's name, id, variant, format, swatches and picture, without a daemon. Exit 1\nwhen a theme has errors (listed in the page without a picture); the others are still drawn."
        case .reload:
            "livery reload\n\nAsks the daemon to rescan the theme directories and the user overrides."
        case .plugins:
            "livery plugins [--json]\n\nLists every plugin liveryd finds (the user's, the system's, the shipped ones), darkman's\ndark-mode.d and light-mode.d scripts and the built-in formats: name, kind (exporter, hook,\ndarkman, format), origin (user, system, shipped, built in), path, and the last run and result."
        case .schedule:
            "livery schedule [--json]\n\nPrints the schedule of ~/.config/livery/config.yaml, the variant it says now and its next two\ntransitions in local time, with no daemon ('no schedule ...' when there is none)."
        case .generate:
            "livery generate (IMAGE | --color HEX | --from-desktop) [--scheme NAME] [--contrast C] [--json] [--out DIR]\n\nMakes a theme from a picture (PNG, JPEG, WebP or SVG), a colour or GNOME's current wallpaper\n(--from-desktop: picture-uri, picture-uri-dark when color-scheme is prefer-dark, a slideshow's\npicture of the moment; bundles DIR/desktop), without a daemon: the\npicture's source colour (matugen's pipeline: 112x112, Celebi quantizer, Score), the Material\nYou scheme of it, light and dark, terminal colours legible by construction and base16 slots.\nPrints a summary, or with --json one object (source, ranked, scheme, contrast, light, dark,\nterminal, base16). --out DIR writes the bundles DIR/ID (light) and DIR/ID-dark, ID from the\npicture's file name. Schemes: tonal-spot (default), content, fidelity,\nvibrant, expressive, monochrome, neutral, rainbow, fruit-salad. Contrast: -1 to 1 (default 0). A picture with no colour gives a neutral scheme and\nsays so."
        case .sun:
            "livery sun --latitude LAT --longitude LON [--date YYYY-MM-DD] [--json]\n\nPrints the sunrise and sunset at a place in UTC, without a daemon ('sunrise 2026-06-21T03:18:25Z'\nand 'sunset ...' lines), or 'polar day' / 'polar night' when the sun does not cross the horizon\nthat day; with --json one object with date, latitude, longitude and sunrise and sunset or polar\n(\"day\" or \"night\"). LAT is -90...90 degrees (north positive), LON -180...180 (east positive).\nThe date is the day at the place in its mean solar time (UTC + LON/15 hours); today's date in\nthe local time zone when none is given. By the NOAA solar position algorithm, the horizon as NOAA\ntakes it (the sun's centre 0.833 degrees below)."
        case .status:
            "livery status [--json]\n\nPrints the daemon's bus name owner, active theme, serial, version, installed themes and problems."
        }
    }
}

let generalUsage = """
    Usage: livery [--address ADDR | --system] COMMAND [ARGS...]

    Switches and inspects Livery themes served by liveryd over D-Bus.

    Commands:
      list                    list installed themes
      get                     print the active theme
      set ID                  switch to theme ID
      toggle                  switch between the light and dark variants
      dark, light             switch to the dark or the light variant
      resolve PATH [PROP...]  resolve a component's properties
      explain PATH PROP       show why a value won
      watch [PATH...]         print theme changes (or a component's changes) as they happen
      check BUNDLE...         check theme bundles offline
      palette ID...           print themes' palettes offline
      build REPO...           render tinted-theming template repositories for every scheme
      export ID TEMPLATE      render one Mustache template for theme ID
      preview ID              draw the sample screen with theme ID into a PNG offline
      gallery DIR             draw every installed theme into DIR with an index.html offline
      generate IMAGE          make a theme from a picture (or --color HEX, --from-desktop) offline
      reload                  rescan theme directories, run every plugin again
      status                  show the daemon's state
      plugins                 list plugins with their last run and result
      sun --latitude LAT --longitude LON
                              print a day's sunrise and sunset at a place offline
      schedule                print the light/dark schedule and its next transitions offline

    Options:
      --address ADDR   use the bus at ADDR instead of the session bus
      --system         use the system bus
      --timeout SECS   wait at most SECS seconds for each reply from liveryd (default 5)
      --json           print data as JSON (list, get, resolve, explain, watch, palette, status,
                     plugins, sun, generate)
      --app ID         resolve as application ID (its @app blocks apply)
      -h, --help       show help (livery COMMAND --help for a command)
      --version        print the version

    Exit status: 0 success, 1 the operation failed, 2 usage error.
    """
