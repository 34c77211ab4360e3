import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension AtomicFile {
    /// Opens (creating it) a temporary file of this process, in a way the signal handler cannot
    /// miss: a file is either created before the handler lists its folder, or not at all. Every
    /// creation of a temporary goes through here (`OutputSet`'s writes and the renderer's sinks).
    /// - Returns: the descriptor, or -1 with `errno` set, as `open` does.
    public static func openTemporary(_ path: String, flags: Int32) -> Int32 {
        SignalCleanup.creating.add(1, ordering: .sequentiallyConsistent)
        if SignalCleanup.cleaning.load(ordering: .sequentiallyConsistent) {
            // A signal is ending the process and its handler may have listed the folder already:
            // create nothing it would not see, and wait for the end.
            SignalCleanup.creating.subtract(1, ordering: .sequentiallyConsistent)
            while true { pause() }
        }
        let fd = FileName.open(path, flags | O_CREAT | O_CLOEXEC, 0o666)
        SignalCleanup.creating.subtract(1, ordering: .sequentiallyConsistent)
        return fd
    }

    /// Makes SIGINT, SIGTERM and SIGHUP remove this process's temporary files before the process
    /// ends as the signal would have ended it. Call once, first thing, in an executable; a signal
    /// the process was started ignoring (`nohup`) stays ignored. Safe to call more than once.
    public static func installSignalCleanup() {
        SignalCleanup.install()
    }
}

/// What the signal handler needs, prepared beforehand so the handler only makes system calls
/// that are safe in a signal handler (open, getdents64, unlinkat, close, raise) on memory
/// allocated in advance: every folder this process wrote a temporary into, as C strings, and the
/// part of a temporary name that marks it as this process's (`.roadbook-tmp-PID-`). The handler
/// lists those folders and removes the entries carrying the mark, which covers every temporary
/// however many there are (a PNG render of hundreds of pages) and whichever writer created it
/// (Cairo opens its own files).
enum SignalCleanup {
    /// Folders remembered; a process writes to a handful, so more are not watched.
    static let capacity = 256
    /// Bytes of directory entries read at once by the handler.
    static let entriesSize = 32 * 1024

    nonisolated(unsafe) static let folders: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let table = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        table.initialize(repeating: nil, count: capacity)
        return table
    }()
    static let folderCount = Atomic<Int>(0)
    static let known = Mutex<Set<String>>([])
    static let installed = Mutex<Bool>(false)
    /// Set by the first handler to run; a second signal waits for it instead of scanning too.
    static let cleaning = Atomic<Bool>(false)
    /// Temporaries being created right now (`openTemporary`): the handler lets them finish before
    /// it lists the folders. With `cleaning` it makes a handshake in which either the handler sees
    /// the new file or the creating thread sees that cleaning began and creates nothing.
    static let creating = Atomic<Int>(0)
    /// Spins the handler waits at most for creations under way: a creation interrupted on the
    /// handler's own thread can never finish, and its file, if `open` returned, is already there.
    static let creationWaitSpins = 20_000_000
    static let cleaned = Atomic<Bool>(false)
    /// Commits renaming their outputs right now (`OutputSet.commit`): a signal arriving meanwhile is
    /// kept in `deferred`, and the last commit to end runs the handler with it, so no temporary
    /// a journal names is removed between two renames. With `cleaning` it makes the same handshake
    /// as `creating`.
    static let committing = Atomic<Int>(0)
    static let deferred = Atomic<Int32>(0)

    /// Marks a commit's renames as begun; when a signal is already ending the process, waits for
    /// the end instead.
    static func beginCommit() {
        committing.add(1, ordering: .sequentiallyConsistent)
        if cleaning.load(ordering: .sequentiallyConsistent) && deferred.load(ordering: .sequentiallyConsistent) == 0 {
            committing.subtract(1, ordering: .sequentiallyConsistent)
            while true { pause() }
        }
    }

    /// Marks a commit's renames as ended; the last to end runs a signal that arrived meanwhile.
    static func endCommit() {
        guard committing.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 else { return }
        let signal = deferred.exchange(0, ordering: .sequentiallyConsistent)
        guard signal != 0 else { return }
        removeOwnTemporaries()
        cleaned.store(true, ordering: .releasing)
        raise(signal)
    }

    struct Prepared {
        var mark: UnsafeMutablePointer<CChar>
        var entries: UnsafeMutableRawPointer
        var getdents: @convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int
    }
    /// Written once by `install` before any handler is set, only read afterwards.
    nonisolated(unsafe) static var prepared: Prepared?

    /// Remembers `folder` for the handler.
    /// - Returns: whether this is the first time this process writes there.
    static func watch(_ folder: String) -> Bool {
        known.withLock { set in
            guard set.insert(folder).inserted else { return false }
            let n = folderCount.load(ordering: .relaxed)
            if n < capacity {
                folders[n] = FileName.withCString(folder) { strdup($0) }
                folderCount.store(n + 1, ordering: .releasing)
            }
            return true
        }
    }

    static func prepare() -> Prepared? {
        // getdents64 is in glibc since 2.30 but not in Swift's Glibc module.
        guard let symbol = dlsym(nil, "getdents64"), let mark = strdup("\(AtomicFile.temporaryMarker)\(getpid())-") else {
            return nil
        }
        return Prepared(mark: mark, entries: UnsafeMutableRawPointer.allocate(byteCount: entriesSize, alignment: 8),
                        getdents: unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int).self))
    }

    static func install() {
        installed.withLock { done in
            guard !done, let ready = prepare() else { return }
            prepared = ready
            done = true
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                var old = sigaction()
                sigaction(signal, nil, &old)
                if unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }  // SIG_IGN
                var action = sigaction()
                action.__sigaction_handler.sa_handler = handler
                sigemptyset(&action.sa_mask)
                action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
                sigaction(signal, &action, nil)
            }
        }
    }

    /// Removes the temporaries, then raises the signal again: the disposition is back to the
    /// default (SA_RESETHAND), so the process ends with the signal's status, as it would have.
    static let handler: @convention(c) (Int32) -> Void = { signal in
        if !SignalCleanup.cleaning.exchange(true, ordering: .sequentiallyConsistent) {
            if SignalCleanup.committing.load(ordering: .sequentiallyConsistent) > 0 {
                // Renames under way: the commit runs this when it ends (`endCommit`).
                SignalCleanup.deferred.store(signal, ordering: .sequentiallyConsistent)
                return
            }
            var spins = 0
            while SignalCleanup.creating.load(ordering: .sequentiallyConsistent) > 0, spins < SignalCleanup.creationWaitSpins {
                spins += 1
            }
            SignalCleanup.removeOwnTemporaries()
            SignalCleanup.cleaned.store(true, ordering: .releasing)
        } else {
            // Another signal while a commit defers the first: the commit ends the process.
            if SignalCleanup.deferred.load(ordering: .sequentiallyConsistent) != 0 { return }
            while !SignalCleanup.cleaned.load(ordering: .acquiring) {}
        }
        raise(signal)
    }

    /// Removes, in every watched folder, the entries whose name carries this process's mark.
    static func removeOwnTemporaries() {
        guard let ready = prepared else { return }
        let count = folderCount.load(ordering: .acquiring)
        var i = 0
        while i < count {
            if let folder = folders[i] {
                let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if fd >= 0 {
                    while true {
                        let bytes = ready.getdents(fd, ready.entries, entriesSize)
                        if bytes <= 0 { break }
                        var offset = 0
                        while offset < bytes {
                            // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name.
                            let record = ready.entries + offset
                            let length = Int(record.loadUnaligned(fromByteOffset: 16, as: UInt16.self))
                            let name = (record + 19).assumingMemoryBound(to: CChar.self)
                            if name.pointee == 0x2E, strstr(name, ready.mark) != nil { unlinkat(fd, name, 0) }
                            offset += max(length, 1)
                        }
                    }
                    close(fd)
                }
            }
            i += 1
        }
    }
}
