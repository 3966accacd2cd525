import CMalloc
import Foundation

// glibc's timerfd calls (<sys/timerfd.h>), which Swift's Glibc module does not export.
@_silgen_name("timerfd_create") private func sysTimerfdCreate(_ clock: Int32, _ flags: Int32) -> Int32
@_silgen_name("timerfd_settime")
private func sysTimerfdSettime(
    _ fd: Int32, _ flags: Int32, _ new: UnsafePointer<itimerspec>, _ old: UnsafeMutablePointer<itimerspec>?
) -> Int32

/// Every system call the service makes beyond what Foundation and Glibc wrap: the only
/// declarations of C functions in this module.
enum SystemCalls {
    /// `TFD_TIMER_ABSTIME` (linux/timerfd.h): the deadline is absolute.
    static let timerAbsolute: Int32 = 1
    /// `TFD_TIMER_CANCEL_ON_SET` (linux/timerfd.h): setting the clock cancels the wait.
    static let timerCancelOnSet: Int32 = 2

    /// `timerfd_create(clock, flags)`: a timer file descriptor, or -1 with `errno`.
    static func timerCreate(_ clock: Int32, _ flags: Int32) -> Int32 { sysTimerfdCreate(clock, flags) }

    /// `timerfd_settime(fd, flags, spec, nil)`: 0, or -1 with `errno`.
    static func timerSet(_ fd: Int32, _ flags: Int32, _ spec: inout itimerspec) -> Int32 {
        sysTimerfdSettime(fd, flags, &spec, nil)
    }

    /// Gives the memory freed since to the system (`malloc_trim(0)`, every arena): glibc keeps
    /// freed blocks for reuse, so a daemon that compiled a few large themes would otherwise keep
    /// its peak size for the rest of its life.
    static func returnFreedMemory() {
        _ = malloc_trim(0)
    }

    /// The identity of a file without reading it: size, modification and change times
    /// (nanoseconds), inode and device; `missing` when `stat` fails. A file edited in place
    /// (`cp new.png old.png`) gets another identity under the same path.
    static func fileIdentity(_ path: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return "missing" }
        return "\(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) "
            + "\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec) \(st.st_ino) \(st.st_dev)"
    }
}
