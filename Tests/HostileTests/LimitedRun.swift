import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of a program under a wall-clock limit and an address-space limit, with what the
/// kernel says about how it ended and its peak memory.
struct LimitedRun: Sendable {
    enum End: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Killed by us after the wall-clock limit.
        case timedOut
    }

    var end: End
    var stdout: String
    var stderr: String
    /// Peak resident memory in bytes (`ru_maxrss` of wait4).
    var peakRSS: Int
    var seconds: Double

    /// Runs `arguments[0]` with the rest as its arguments, through `prlimit --as=addressSpace`, in
    /// `directory`, with `environment`, standard input from /dev/null and both outputs to files in
    /// `logs` (which must not be `directory`, so the logs are never taken for leftovers).
    static func run(_ arguments: [String], in directory: URL, environment: [String: String], logs: URL,
                    timeout: Double, addressSpace: Int, input: Data? = nil) throws -> LimitedRun {
        try run(bytes: arguments.map { Array($0.utf8) }, in: directory, environment: environment, logs: logs,
                timeout: timeout, addressSpace: addressSpace, input: input)
    }

    /// `run` with each argument as bytes, which need not be UTF-8 (a file name in Latin-1).
    /// - Parameter input: standard input, written into a pipe as the program reads it; nil for /dev/null.
    static func run(bytes arguments: [[UInt8]], in directory: URL, environment: [String: String], logs: URL,
                    timeout: Double, addressSpace: Int, input: Data? = nil) throws -> LimitedRun {
        let out = logs.appendingPathComponent("stdout"), err = logs.appendingPathComponent("stderr")
        // prlimit sets the limit, then execs env, which enters the folder and execs the program:
        // one process id throughout, so wait4 reports the program's own rusage.
        let argv = ["/usr/bin/prlimit", "--as=\(addressSpace)", "--core=0", "--", "/usr/bin/env", "-C", directory.path].map { Array($0.utf8) }
            + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if input != nil {
            // Closed on exec (under `spawning`, as every start here is): a case started meanwhile on
            // another thread must not hold this pipe open.
            let made = spawning.withLock {
                guard pipe(&pipeEnds) == 0 else { return false }
                for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                return true
            }
            guard made else { throw RunError(message: "pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { bytes in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        } + [nil]
        let cEnv = envp.map { strdup($0) } + [nil]
        defer {
            for p in cArgs { p?.deallocate() }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let started = Date()
        let spawned = spawning.withLock { posix_spawn(&pid, "/usr/bin/prlimit", &actions, nil, cArgs, cEnv) }
        guard spawned == 0 else {
            throw RunError(message: "cannot start /usr/bin/prlimit: \(String(cString: strerror(spawned)))")
        }
        if let input {
            // The program's end of the pipe is its own now; this end is written from a thread and
            // closed, so the program reads to the end of the input (or stops reading: EPIPE ends it).
            close(pipeEnds[0])
            let writer = pipeEnds[1]
            Thread.detachNewThread {
                Glibc.signal(SIGPIPE, SIG_IGN)
                input.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let n = write(writer, bytes.baseAddress! + offset, bytes.count - offset)
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        offset += n
                    }
                }
                close(writer)
            }
        }
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        var peak = 0
        // The kernel's name of the program (15 bytes of its file name): samples are taken only once
        // prlimit and env have exec'd it, so what is measured is the program's own memory.
        let program = String(String(decoding: arguments[0], as: UTF8.self).split(separator: "/").last?.prefix(15) ?? "")
        while true {
            peak = max(peak, highWaterMark(of: pid, program: program))
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if done < 0 && errno != EINTR { throw RunError(message: "wait4: \(String(cString: strerror(errno)))") }
            if !timedOut && Date().timeIntervalSince(started) > timeout {
                kill(pid, SIGKILL)
                timedOut = true
            }
            usleep(10_000)
        }
        let seconds = Date().timeIntervalSince(started)
        let end: End
        // WIFEXITED / WTERMSIG by hand: the macros are not imported into Swift.
        let signal = status & 0x7f
        if timedOut {
            end = .timedOut
        } else if signal == 0 {
            end = .exited((status >> 8) & 0xff)
        } else {
            end = .signalled(signal)
        }
        func text(_ url: URL) -> String {
            String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
        }
        // wait4's ru_maxrss would be the right figure, but posix_spawn starts the child sharing this
        // (large) test process's memory until it execs, and Linux keeps that high-water mark in
        // the child's ru_maxrss. So the peak is the program's own VmHWM, sampled every 10 ms, and
        // ru_maxrss only when it is the smaller (a run shorter than one sample).
        // A run too short to be sampled has only ru_maxrss, which carries this process's resident
        // memory at the spawn. Touching the 512 MiB that counts as too much takes a program far
        // longer than `unsampledRun` (over 100 ms here), so an unsampled run that ended sooner is
        // counted as 0 rather than as this test's memory; a longer one keeps ru_maxrss.
        let reported = Int(usage.ru_maxrss) * 1024
        return LimitedRun(end: end, stdout: text(out), stderr: text(err),
                          peakRSS: peak > 0 ? peak : (seconds < Self.unsampledRun ? 0 : reported), seconds: seconds)
    }

    /// Held while a pipe is made and marked close-on-exec, and while a program is started.
    static let spawning = NSLock()

    /// How long a run may last unsampled and still be known not to have touched much memory (s).
    static let unsampledRun = 0.05

    /// The peak resident memory of `pid`'s current program (VmHWM of /proc/PID/status), in bytes;
    /// 0 when it cannot be read (the process has ended) or the process is not yet `program`.
    static func highWaterMark(of pid: pid_t, program: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              text.split(separator: "\n").first == "Name:\t\(program)"[...],
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }

    struct RunError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
