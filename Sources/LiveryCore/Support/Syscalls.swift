#if canImport(Glibc)
    import Glibc
#endif

// The C library functions LiveryCore calls that Swift's Glibc module does not export, declared
// here and nowhere else, each by its C name. glibc has all of them: pipe2 since 2.9,
// posix_spawn_file_actions_addchdir_np since 2.29, posix_spawn_file_actions_addclosefrom_np
// since 2.34.

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
