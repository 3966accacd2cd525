#if canImport(Glibc)
    import Glibc
#endif

// The C library functions Livery's Swift modules call that Swift's Glibc module does not export,
// declared here and nowhere else, each by its C name; LiveryService reaches them through
// `SystemCalls`. glibc has all of them: malloc_trim (<malloc.h>) since 2.0, timerfd_create and
// timerfd_settime since 2.8, pipe2 since 2.9, posix_spawn_file_actions_addchdir_np since 2.29,
// posix_spawn_file_actions_addclosefrom_np since 2.34. Each takes and returns only integers and
// pointers, which Swift passes and returns as C does.

/// `pipe2(2)`: a pipe whose two descriptors get `flags` (`O_CLOEXEC`).
@_silgen_name("pipe2")
func sysPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// `posix_spawn_file_actions_addclosefrom_np(3)`: the spawned program starts with every
/// descriptor from `from` up closed.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
func sysAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

/// `posix_spawn_file_actions_addchdir_np(3)`: the spawned program starts in `path`.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
func sysAddChdir(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
) -> Int32

/// `timerfd_create(2)`: a timer file descriptor, or -1 with `errno`.
@_silgen_name("timerfd_create")
private func sysTimerfdCreate(_ clock: Int32, _ flags: Int32) -> Int32

/// `timerfd_settime(2)`: arms the timer `fd`; 0, or -1 with `errno`.
@_silgen_name("timerfd_settime")
private func sysTimerfdSettime(
    _ fd: Int32, _ flags: Int32, _ new: UnsafePointer<itimerspec>, _ old: UnsafeMutablePointer<itimerspec>?
) -> Int32

/// `malloc_trim(3)`: gives free memory back to the system, keeping `pad` bytes at the top of the
/// main heap; 1 when some was given back.
@_silgen_name("malloc_trim")
private func sysMallocTrim(_ pad: Int) -> Int32

/// The system calls LiveryService makes beyond what Foundation and Glibc wrap.
package enum SystemCalls {
    /// `TFD_TIMER_ABSTIME` (linux/timerfd.h): the deadline is absolute.
    package static let timerAbsolute: Int32 = 1
    /// `TFD_TIMER_CANCEL_ON_SET` (linux/timerfd.h): setting the clock cancels the wait.
    package static let timerCancelOnSet: Int32 = 2

    /// `timerfd_create(clock, flags)`: a timer file descriptor, or -1 with `errno`.
    package static func timerCreate(_ clock: Int32, _ flags: Int32) -> Int32 {
        sysTimerfdCreate(clock, flags)
    }

    /// `timerfd_settime(fd, flags, spec, nil)`: 0, or -1 with `errno`.
    package static func timerSet(_ fd: Int32, _ flags: Int32, _ spec: inout itimerspec) -> Int32 {
        sysTimerfdSettime(fd, flags, &spec, nil)
    }

    /// Gives the memory freed since to the system (`malloc_trim(0)`, every arena): glibc keeps
    /// freed blocks for reuse, so a daemon that compiled a few large themes would otherwise keep
    /// its peak size for the rest of its life.
    package static func returnFreedMemory() {
        _ = sysMallocTrim(0)
    }

    /// The identity of a file without reading it: size, modification and change times
    /// (nanoseconds), inode and device; `missing` when `stat` fails. A file edited in place
    /// (`cp new.png old.png`) gets another identity under the same path.
    package static func fileIdentity(_ path: String) -> String {
        var st = stat()
        guard stat(path, &st) == 0 else { return "missing" }
        return "\(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) "
            + "\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec) \(st.st_ino) \(st.st_dev)"
    }
}
