import CCurl
import Foundation

/// The one place where a libcurl status becomes a Swift error.
///
/// Connection failures (refused, no route, name or proxy not found) are `.unreachable`, a timeout
/// is `.timedOut`, and everything else (a broken connection, an answer that is not HTTP, a refused
/// option) is `.failed`. The detail names the call, libcurl's text for the code and, when there is
/// one, libcurl's own message for this transfer.
/// - Parameters:
///   - code: what libcurl returned.
///   - url: the request's address, for the error.
///   - call: the libcurl call or option that failed.
///   - message: libcurl's error buffer for this transfer (empty when it said nothing more).
/// - Throws: `HTTPError` unless `code` is `CURLE_OK`.
func checkCurl(_ code: CURLcode, url: URL, call: String, message: String = "") throws(HTTPError) {
    guard code != CURLE_OK else { return }
    let kind: HTTPError.Kind = switch code {
    case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .unreachable
    case CURLE_OPERATION_TIMEDOUT: .timedOut
    default: .failed
    }
    let text = String(cString: curl_easy_strerror(code))
    let detail = message.isEmpty || message == text ? "\(call): \(text)" : "\(call): \(text) (\(message))"
    throw HTTPError(kind: kind, url: url, detail: detail)
}

/// Set by the task that waits for a transfer when it is cancelled; read by libcurl's progress
/// callback on the transfer's thread.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// What the callbacks collect while a transfer runs. Only the transfer's own thread touches it.
final class TransferSink {
    var body = Data()
    /// The most body bytes taken; past it the write callback stops the transfer.
    let limit: Int
    /// Set when the body passed `limit`.
    var overLimit = false
    /// Header names in lower case; repeated headers joined with ", " (RFC 9110 §5.3).
    var headers: [String: String] = [:]
    let cancellation: CancellationFlag

    init(cancellation: CancellationFlag, limit: Int) {
        self.cancellation = cancellation
        self.limit = limit
    }

    /// Takes one header line as libcurl hands it over (status line, header, or the blank line).
    func receiveHeaderLine(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        // A new status line starts a new header block (after a 1xx answer); keep only the last.
        if trimmed.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = trimmed.firstIndex(of: ":") else { return }
        let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return }
        if let earlier = headers[name] {
            headers[name] = earlier + ", " + value
        } else {
            headers[name] = value
        }
    }
}

/// A `curl_slist` of request header lines, freed with `curl_slist_free_all`.
final class CurlHeaderList {
    private(set) var pointer: UnsafeMutablePointer<curl_slist>?

    /// Appends one line, `Name: value`, as curl sends it.
    /// - Throws: `HTTPError.failed` when curl cannot allocate the line.
    func append(_ line: String, url: URL) throws(HTTPError) {
        guard let extended = curl_slist_append(pointer, line) else {
            throw HTTPError(kind: .failed, url: url, detail: "curl_slist_append: out of memory")
        }
        pointer = extended
    }

    deinit { curl_slist_free_all(pointer) }
}

/// One libcurl easy handle, set up for one request and freed with `curl_easy_cleanup`.
///
/// It keeps alive everything libcurl points at while the transfer runs: the header list, the
/// error buffer and the sink the callbacks write to. Use it on one thread only.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    private let url: URL
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var headerList: CurlHeaderList?
    let sink: TransferSink

    /// - Throws: `HTTPError.failed` when libcurl cannot make a handle.
    init(url: URL, sink: TransferSink) throws(HTTPError) {
        guard let handle = curl_easy_init() else {
            throw HTTPError(kind: .failed, url: url, detail: "curl_easy_init: no handle")
        }
        self.handle = handle
        self.url = url
        self.sink = sink
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // From here on deinit frees the handle and the buffer, also when a later line throws.
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
        let context = Unmanaged.passUnretained(sink).toOpaque()
        try check(ccurl_setopt_write_function(handle, curlWriteCallback), "CURLOPT_WRITEFUNCTION")
        try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        try check(ccurl_setopt_header_function(handle, curlHeaderCallback), "CURLOPT_HEADERFUNCTION")
        try check(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        try check(ccurl_setopt_xferinfo_function(handle, curlProgressCallback), "CURLOPT_XFERINFOFUNCTION")
        try check(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "CURLOPT_XFERINFODATA")
        try check(ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0), "CURLOPT_NOPROGRESS")
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    func set(_ option: CURLoption, _ value: Int, name: String) throws(HTTPError) {
        try check(ccurl_setopt_long(handle, option, value), name)
    }

    /// libcurl copies strings it is given (since 7.17.0), so `value` need not outlive the call.
    func set(_ option: CURLoption, _ value: String, name: String) throws(HTTPError) {
        try check(ccurl_setopt_string(handle, option, value), name)
    }

    /// Sends `headers` with the request; the list stays alive as long as this handle.
    func setHeaders(_ headers: CurlHeaderList) throws(HTTPError) {
        headerList = headers
        try check(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers.pointer), "CURLOPT_HTTPHEADER")
    }

    /// Makes the request a POST of `body`, which libcurl copies.
    func setPostBody(_ body: Data) throws(HTTPError) {
        let code = body.withUnsafeBytes { raw -> CURLcode in
            // An empty body still needs a valid pointer for COPYPOSTFIELDS.
            guard let base = raw.baseAddress, raw.count > 0 else { return ccurl_setopt_postfields_copy(handle, "", 0) }
            return ccurl_setopt_postfields_copy(handle, base.assumingMemoryBound(to: CChar.self), raw.count)
        }
        try check(code, "CURLOPT_COPYPOSTFIELDS")
    }

    /// Runs the transfer to its end; blocks the calling thread.
    /// - Returns: the status code of the answer.
    /// - Throws: `HTTPError` when there is no complete answer; `CancellationError` when the waiting
    ///   task was cancelled.
    func perform() throws -> Int {
        let code = curl_easy_perform(handle)
        if code == CURLE_ABORTED_BY_CALLBACK, sink.cancellation.isSet { throw CancellationError() }
        if (code == CURLE_WRITE_ERROR && sink.overLimit) || code == CURLE_FILESIZE_EXCEEDED {
            throw HTTPError(kind: .tooLarge, url: url,
                            detail: "the answer is larger than \(Self.megabytes(sink.limit)), the most this client takes")
        }
        try check(code, "curl_easy_perform")
        var status = 0
        try check(ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status), "CURLINFO_RESPONSE_CODE")
        return status
    }

    /// A byte count in MiB for messages: "64 MB".
    static func megabytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(bytes) bytes"
    }

    private func check(_ code: CURLcode, _ call: String) throws(HTTPError) {
        try checkCurl(code, url: url, call: call, message: String(cString: errorBuffer))
    }
}

// libcurl's callbacks: plain C functions, handed the sink as their last (or first) argument.

private let curlWriteCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length <= sink.limit - sink.body.count else {
        sink.overLimit = true
        return 0   // anything but `length` stops the transfer with CURLE_WRITE_ERROR
    }
    sink.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    return length
}

private let curlHeaderCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    // Header values should be ASCII (RFC 9110 §5.5); other bytes that are not UTF-8 become U+FFFD.
    sink.receiveHeaderLine(String(decoding: bytes, as: UTF8.self))
    return length
}

private let curlProgressCallback: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = {
    context, _, _, _, _ in
    guard let context else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
    return sink.cancellation.isSet ? 1 : 0
}
