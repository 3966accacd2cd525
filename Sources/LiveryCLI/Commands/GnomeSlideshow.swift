import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A GNOME background slideshow: the XML file `picture-uri` names on Debian 12 (desktop-base's
/// `/usr/share/images/desktop-base/desktop-background.xml`) and wherever a user set one. Read as
/// gnome-desktop's `GnomeBGSlideShow` reads it (`gnome-bg-slide-show.c`), for the picture GNOME
/// shows:
///
/// - `<background>` holds an optional `<starttime>` (`<year>`, `<month>`, `<day>`, `<hour>`,
///   `<minute>`, `<second>`, local time; each number read by C's `strtol` with base 0, and the
///   hour one less than written, as gnome-desktop reads them; the fields not given are the
///   epoch's), then slides in order: `<static>` (`<duration>` seconds, `<file>`) and
///   `<transition>` (`<duration>`, `<from>`, `<to>`). A file is a path, or `<size width= height=>`
///   elements each holding the path of a variant for screens of that shape.
/// - The show repeats from its start; the current slide is the one covering
///   `(now − start) mod total` (a show of one slide shows it for ever).
/// - Of a slide's size variants, the one gnome-desktop's `find_best_size` picks for the screen:
///   the shape nearest the screen's among the variants at least as large as it (among all when
///   none is), ties to the width nearest the screen's.
///
/// Two simplifications, in the README: during a transition GNOME shows a blend of `from` into
/// `to`; here the picture with the larger share is taken (`from` in its first half, `to` in its
/// second). The screen's size is not asked for: 1920 × 1080 unless given (the variants of a
/// wallpaper are one design at several shapes). A path that is not absolute is taken in the
/// slideshow's directory (gnome-desktop takes it in its own working directory).
struct GnomeSlideshow {
    /// The largest slideshow file read, in bytes (desktop-base's are under 2 KiB).
    static let maximumSize = 1 << 20

    /// A file of a slide, for screens of a size (`width` -1 for a plain file without `<size>`).
    struct Variant {
        var width: Int
        var height: Int
        var file: String
    }

    /// A `<static>` (no `to`) or a `<transition>`. The variants are kept in the reverse of their
    /// order in the file, as gnome-desktop keeps them (`find_best_size`'s ties depend on it).
    struct Slide {
        var duration: Double = 0
        var fixed: Bool
        var from: [Variant] = []
        var to: [Variant] = []
    }

    /// The slides in order.
    private(set) var slides: [Slide]
    /// When the show started, seconds since the epoch.
    private(set) var start: Double
    /// The length of the show: its slides' durations added up.
    private(set) var total: Double

    /// The show in `xml`, or nil when it is not one (not XML, or no `<static>` nor `<transition>`).
    /// - Parameters:
    ///   - xml: the file's bytes.
    ///   - directory: where a path that is not absolute is taken.
    init?(xml: Data, directory: String) {
        let reader = Reader()
        let parser = XMLParser(data: xml)
        parser.delegate = reader
        guard parser.parse(), !reader.slides.isEmpty else { return nil }
        var start = reader.startTime
        slides = reader.slides.map { slide in
            var slide = slide
            for i in slide.from.indices { slide.from[i].file = Self.path(slide.from[i].file, in: directory) }
            for i in slide.to.indices { slide.to[i].file = Self.path(slide.to[i].file, in: directory) }
            return slide
        }
        total = reader.total
        if slides.count == 1 {
            slides[0].duration = Double(UInt32.max)
            total = slides[0].duration
        }
        self.start = Double(mktime(&start))
    }

    /// The picture shown at `now` (seconds since the epoch) on a screen of `width` × `height`,
    /// or nil when the show has no length or that slide no file.
    func picture(at now: Double, width: Int = 1920, height: Int = 1080) -> String? {
        guard total > 0, total.isFinite else { return nil }
        var delta = fmod(now - start, total)
        if delta < 0 { delta += total }
        var elapsed = 0.0
        for slide in slides {
            if elapsed + slide.duration > delta {
                let progress = (delta - elapsed) / slide.duration
                let shown = slide.fixed || progress < 0.5 ? slide.from : slide.to
                return Self.bestVariant(shown, width: width, height: height)
            }
            elapsed += slide.duration
        }
        return nil
    }

    /// gnome-desktop's `find_best_size`.
    static func bestVariant(_ variants: [Variant], width: Int, height: Int) -> String? {
        let aspect = Double(width) / Double(height)
        var distance = 10000.0
        var best: Variant?
        for pass in 0..<2 {
            for v in variants {
                if pass == 0 && (v.width < width || v.height < height) { continue }
                let d = abs(aspect - Double(v.width) / Double(v.height))
                if d < distance {
                    distance = d
                    best = v
                } else if d == distance, let b = best, abs(v.width - width) < abs(b.width - width) {
                    best = v
                }
            }
            if best != nil { break }
        }
        return best?.file
    }

    private static func path(_ file: String, in directory: String) -> String {
        file.hasPrefix("/") ? file : (directory as NSString).appendingPathComponent(file)
    }

    /// The XML parser's delegate: gnome-desktop's `handle_start_element` and `handle_text`, the
    /// text of an element taken at its end (so that text split by entities is one).
    private final class Reader: NSObject, XMLParserDelegate {
        var slides: [Slide] = []
        /// The durations read, added up (a slide with two counts both, as in gnome-desktop).
        var total = 0.0
        var startTime: tm
        /// The open elements' names, outermost first, and the text of each so far.
        private var stack: [(name: String, text: String)] = []

        override init() {
            var epoch: time_t = 0
            var t = tm()
            localtime_r(&epoch, &t)
            startTime = t
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if name == "static" || name == "transition" {
                slides.append(Slide(fixed: name == "static"))
            } else if name == "size", !slides.isEmpty {
                let size = Variant(
                    width: Int(strtol(attributes["width"] ?? "0", nil, 10)),
                    height: Int(strtol(attributes["height"] ?? "0", nil, 10)), file: "")
                switch stack.last?.name {
                case "file", "from": slides[slides.count - 1].from.insert(size, at: 0)
                case "to": slides[slides.count - 1].to.insert(size, at: 0)
                default: break
                }
            }
            stack.append((name, ""))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].text += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
        ) {
            take(stack.map(\.name), stack.last?.text ?? "")
            stack.removeLast()
        }

        /// The text of the element at the end of `path`.
        private func take(_ path: [String], _ text: String) {
            let number = { Int32(truncatingIfNeeded: strtol(text, nil, 0)) }
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch path {
            case ["background", "starttime", "year"]: startTime.tm_year = number() - 1900
            case ["background", "starttime", "month"]: startTime.tm_mon = number() - 1
            case ["background", "starttime", "day"]: startTime.tm_mday = number()
            case ["background", "starttime", "hour"]: startTime.tm_hour = number() - 1
            case ["background", "starttime", "minute"]: startTime.tm_min = number()
            case ["background", "starttime", "second"]: startTime.tm_sec = number()
            case ["background", "static", "duration"], ["background", "transition", "duration"]:
                slides[slides.count - 1].duration = strtod(text, nil)
                total += slides[slides.count - 1].duration
            case ["background", "static", "file"], ["background", "transition", "from"],
                ["background", "transition", "to"]:
                guard !trimmed.isEmpty else { return }
                let plain = Variant(width: -1, height: -1, file: trimmed)
                if path.last == "to" {
                    slides[slides.count - 1].to.insert(plain, at: 0)
                } else {
                    slides[slides.count - 1].from.insert(plain, at: 0)
                }
            case ["background", "static", "file", "size"], ["background", "transition", "from", "size"]:
                if !slides[slides.count - 1].from.isEmpty { slides[slides.count - 1].from[0].file = trimmed }
            case ["background", "transition", "to", "size"]:
                if !slides[slides.count - 1].to.isEmpty { slides[slides.count - 1].to[0].file = trimmed }
            default: break
            }
        }
    }
}
