import Foundation
import LiveryCore

/// Which programs run as processes of a user, by the names the kernel gives processes
/// (`/proc/PID/comm`: the executable's file name, or a script's, at most 15 bytes): what a
/// command's `when-running` asks before it is started.
enum RunningPrograms {
    /// `name` as the kernel keeps it in `comm`: its first `PluginManifest.programNameLength`
    /// bytes (a name cut inside a UTF-8 sequence is compared by those bytes, as the kernel cuts).
    static func kernelName(_ name: String) -> [UInt8] {
        Array(name.utf8.prefix(PluginManifest.programNameLength))
    }

    /// The names of `names` that some live process of the user `uid` has: each process of
    /// `/proc` whose `comm` is one of them (cut as the kernel cuts), that is not a zombie, and
    /// whose real uid (`Uid:` of its `status`) is `uid`. A process that ends while it is read
    /// is not counted.
    /// - Parameters:
    ///   - names: Program names as a manifest gives them.
    ///   - uid: The user whose processes count: liveryd's own.
    ///   - proc: Where procfs is mounted.
    /// - Returns: The subset of `names` found running.
    static func running(_ names: Set<String>, uid: uid_t = getuid(), proc: String = "/proc") -> Set<String> {
        guard !names.isEmpty else { return [] }
        var byKernelName: [[UInt8]: [String]] = [:]
        for name in names { byKernelName[kernelName(name), default: []].append(name) }
        var found: Set<String> = []
        guard let directory = opendir(proc) else { return [] }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let pid = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard pid.first?.isASCII == true, pid.allSatisfy(\.isNumber),
                var comm = read(proc + "/" + pid + "/comm")
            else { continue }
            if comm.last == UInt8(ascii: "\n") { comm.removeLast() }
            guard let wanted = byKernelName[comm], !found.isSuperset(of: wanted),
                isLive(proc + "/" + pid + "/status", uid: uid)
            else { continue }
            found.formUnion(wanted)
            if found.count == names.count { break }
        }
        return found
    }

    /// Whether a process's `status` file says it is not a zombie (`State:` not `Z` or `X`) and
    /// its real uid (the first field of `Uid:`) is `uid`.
    static func isLive(_ statusPath: String, uid: uid_t) -> Bool {
        guard let bytes = read(statusPath) else { return false }
        var state: Substring?
        var realUID: Substring?
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2 else { continue }
            if fields[0] == "State:" { state = fields[1] }
            if fields[0] == "Uid:" { realUID = fields[1] }
        }
        guard let state, let realUID else { return false }
        return state != "Z" && state != "X" && realUID == String(uid)
    }

    /// The first 4 KiB of a procfs file, or nil when it cannot be read (the process is gone).
    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
        return n < 0 ? nil : Array(buffer.prefix(n))
    }

    /// What `livery plugins` says of a command skipped because none of `names` runs:
    /// `waybar not running`, `none of sway, i3 running`.
    static func notRunning(_ names: [String]) -> String {
        names.count == 1
            ? "\(names[0]) not running" : "none of \(names.joined(separator: ", ")) running"
    }
}
