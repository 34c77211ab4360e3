// Shared by every harness (scripts/fuzz.sh compiles it with each one).
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The fuzzer's bytes as Data (copied: the buffer is only valid during the call).
func fuzzData(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Data { Data(bytes: bytes, count: size) }

/// The folder this process writes its inputs to, for readers that take a file: in /dev/shm when
/// there is one, so the disk is not worn by millions of writes.
let fuzzFolder: URL = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let url = URL(fileURLWithPath: base).appendingPathComponent("roadbook-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: "/dev/shm/roadbook-fuzz-\(getpid())") }
    return url
}()

/// Writes `data` to a file called `name` in `fuzzFolder` and returns its URL.
func fuzzFile(_ data: Data, named name: String) -> URL {
    let url = fuzzFolder.appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: url.path, contents: data)
    return url
}

/// Runs `body` on the concurrency pool and waits for it: the harness entry point is synchronous.
func blocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}
