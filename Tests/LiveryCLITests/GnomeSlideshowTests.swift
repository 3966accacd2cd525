import Foundation
import XCTest

@testable import LiveryCLI

/// GNOME background slideshows (`picture-uri` naming an XML file) read as gnome-desktop's
/// `GnomeBGSlideShow` reads them: the slide current at a time and the `<size>` variant for the
/// screen (`--from-desktop`, the README's "Following the desktop's wallpaper").
final class GnomeSlideshowTests: XCTestCase {
    func slideshow(_ xml: String) throws -> GnomeSlideshow {
        try XCTUnwrap(GnomeSlideshow(xml: Data(xml.utf8), directory: "/pictures"))
    }

    /// No `<starttime>`: the show starts at the epoch. A 100 s picture, a 10 s transition to the
    /// next, 100 s of it and 10 s back: 220 s in all, repeated. During a transition the picture
    /// with the larger share is shown (its first half `from`, its second half `to`).
    func testTheSlideOfTheMomentAndTheNearerPictureOfATransition() throws {
        let show = try slideshow(
            """
            <?xml version="1.0"?>
            <!-- a comment -->
            <background>
              <static><duration>100.0</duration><file>/a.jpg</file></static>
              <transition type="overlay"><duration>10</duration><from>/a.jpg</from><to>/b &amp; c.png</to></transition>
              <static><duration>100</duration><file>
                  /b &amp; c.png
              </file></static>
              <transition><duration>10</duration><from>/b &amp; c.png</from><to>/a.jpg</to></transition>
            </background>
            """)
        let expected: [(Double, String)] = [
            (0, "/a.jpg"), (50, "/a.jpg"), (104, "/a.jpg"), (106, "/b & c.png"), (150, "/b & c.png"),
            (214, "/b & c.png"), (216, "/a.jpg"), (220 + 50, "/a.jpg"), (220 * 1000 + 150, "/b & c.png"),
            // Before the start the ring is walked back: -10 is 210, the start of the last transition.
            (-10, "/b & c.png"),
        ]
        for (now, picture) in expected {
            XCTAssertEqual(show.picture(at: now), picture, "at \(now)")
        }
    }

    /// `<size>` variants: an exact size wins; otherwise the nearest shape among those at least
    /// as large as the screen (then among all), ties to the nearer width, as gnome-desktop's
    /// `find_best_size` picks.
    func testTheSizeVariantForTheScreen() throws {
        let show = try slideshow(
            """
            <background><static><duration>8640000.0</duration><file>
              <size width="1280" height="1024">/p/1280x1024.svg</size>
              <size width="1920" height="1080">/p/1920x1080.svg</size>
              <size width="1920" height="1200">/p/1920x1200.svg</size>
              <size width="3840" height="2160">/p/3840x2160.svg</size>
            </file></static></background>
            """)
        XCTAssertEqual(show.picture(at: 0, width: 1920, height: 1080), "/p/1920x1080.svg")
        XCTAssertEqual(show.picture(at: 0), "/p/1920x1080.svg")
        // 2560 × 1440 is 16:9: only 3840 × 2160 is as large and of that shape.
        XCTAssertEqual(show.picture(at: 0, width: 2560, height: 1440), "/p/3840x2160.svg")
        // 1680 × 1050 is 16:10: 1920 × 1200 is.
        XCTAssertEqual(show.picture(at: 0, width: 1680, height: 1050), "/p/1920x1200.svg")
        // Larger than all: the second pass takes the nearest shape of any size (5:4).
        XCTAssertEqual(show.picture(at: 0, width: 5000, height: 4000), "/p/1280x1024.svg")
    }

    /// Debian's own: desktop-base's default wallpaper (the Makefile's TEST_PACKAGES), one static
    /// slide of a size variant per screen shape.
    func testDebiansDefaultWallpaper() throws {
        let xml = "/usr/share/images/desktop-base/desktop-background.xml"
        let data = try XCTUnwrap(FileManager.default.contents(atPath: xml), "\(xml): install desktop-base")
        let directory = (URL(fileURLWithPath: xml).resolvingSymlinksInPath().path as NSString)
            .deletingLastPathComponent
        let show = try XCTUnwrap(GnomeSlideshow(xml: data, directory: directory))
        XCTAssertEqual(
            show.picture(at: Date().timeIntervalSince1970), directory + "/contents/images/1920x1080.svg")
    }

    /// `<starttime>` is local time as gnome-desktop reads it: `<hour>` one more than meant (it
    /// subtracts one), each number as C's `strtol` with base 0 reads it, and daylight saving time
    /// as on the epoch's day, whose fields gnome-desktop starts from (so a time in daylight saving
    /// time where the epoch was not is taken as standard time, an hour later). Compared with
    /// Foundation's calendar in the local time zone.
    func testTheStartTimeIsLocalTime() throws {
        let show = try slideshow(
            """
            <background>
              <starttime><year>2011</year><month>1</month><day>15</day><hour>9</hour><minute>30</minute>
                <second>15</second></starttime>
              <static><duration>60</duration><file>/a.jpg</file></static>
              <static><duration>60</duration><file>/b.jpg</file></static>
            </background>
            """)
        let components = DateComponents(year: 2011, month: 1, day: 15, hour: 8, minute: 30, second: 15)
        let date = try XCTUnwrap(Calendar.current.date(from: components))
        let zone = TimeZone.current
        let start =
            date.timeIntervalSince1970 + zone.daylightSavingTimeOffset(for: date)
            - zone.daylightSavingTimeOffset(for: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(show.start, start)
        XCTAssertEqual(show.picture(at: start + 30), "/a.jpg")
        XCTAssertEqual(show.picture(at: start + 90), "/b.jpg")
        XCTAssertEqual(show.picture(at: start + 150), "/a.jpg")
    }

    /// A file name that is not absolute is taken in the slideshow's directory.
    func testARelativeFileIsInTheSlideshowsDirectory() throws {
        let show = try slideshow("<background><static><file>one.png</file></static></background>")
        XCTAssertEqual(show.picture(at: 12345), "/pictures/one.png")
    }

    /// Not a slideshow: other XML, no slides, a slide without a file, a broken document.
    func testWhatIsNoSlideshow() {
        for xml in [
            "<svg xmlns='http://www.w3.org/2000/svg'/>", "<background></background>",
            "<background><static><duration>5</duration></static></background>", "<background><static>",
        ] {
            XCTAssertNil(GnomeSlideshow(xml: Data(xml.utf8), directory: "/")?.picture(at: 0), xml)
        }
    }
}
