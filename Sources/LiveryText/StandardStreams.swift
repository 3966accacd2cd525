#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Opens /dev/null on each of the standard descriptors 0, 1 and 2 that is closed, before anything
/// else opens a file: a program started with one closed (`livery get >&-`) would otherwise have
/// its bus socket made that descriptor, and its output or error text written down the socket.
/// POSIX leaves the standard streams of such a process undefined; this makes them /dev/null, as
/// a shell's `>/dev/null` would.
public func openClosedStandardStreams() {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
        let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
        // open returns the lowest free descriptor, which is `fd` when the lower ones are open;
        // else move it there.
        if opened >= 0 && opened != fd {
            dup2(opened, fd)
            close(opened)
        }
    }
}
