import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension AtomicFile {
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
    static let cleaned = Atomic<Bool>(false)

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
                folders[n] = strdup(folder)
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
        if !SignalCleanup.cleaning.exchange(true, ordering: .acquiringAndReleasing) {
            SignalCleanup.removeOwnTemporaries()
            SignalCleanup.cleaned.store(true, ordering: .releasing)
        } else {
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
