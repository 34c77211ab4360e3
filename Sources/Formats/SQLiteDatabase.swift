import AtomicFile
import CSQLite
import Foundation

/// An SQLite database file open for writing: the one owner of an `sqlite3` handle. Every call's
/// status is checked and a failure thrown as `AtomicFile.WriteError` naming the output with
/// SQLite's message; statements are finalized before the handle is closed, in `deinit` at the
/// latest.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// The name errors give: the output, not its temporary.
    let target: String

    /// Opens `file`, which must exist (an empty file is an empty database); nothing else is created
    /// beside it: the journal is kept off, as the file is a temporary that is thrown away whole
    /// when the export fails.
    init(openingExisting file: URL, target: String) throws {
        self.target = target
        var db: OpaquePointer?
        let status = FileName.withCString(file.path) { sqlite3_open_v2($0, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) }
        handle = db
        guard status == SQLITE_OK else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            throw AtomicFile.WriteError(path: target, reason: "SQLite: \(message)")
        }
        try execute("PRAGMA journal_mode = OFF")
        try execute("PRAGMA synchronous = OFF")
    }

    deinit {
        // sqlite3_close_v2 defers the close until every statement is finalized; `Statement`s
        // finalize in their own deinit, and hold this database, so none outlives it.
        if let handle { sqlite3_close_v2(handle) }
    }

    /// Closes the database, reporting a failure (a statement left unfinalized, a write that failed).
    func close() throws {
        guard let db = handle else { return }
        let status = sqlite3_close(db)
        guard status == SQLITE_OK else { throw failure(status) }
        handle = nil
    }

    /// Runs `sql`, one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(error)
            throw AtomicFile.WriteError(path: target, reason: "SQLite: \(message)")
        }
    }

    /// A prepared statement of this database.
    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw failure(status)
        }
        return Statement(statement, database: self)
    }

    fileprivate func failure(_ status: Int32) -> AtomicFile.WriteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        return AtomicFile.WriteError(path: target, reason: "SQLite: \(message)")
    }

    /// A value bound to a statement's parameter.
    enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    /// A prepared statement: bound, stepped and reset for each row; finalized in `deinit`.
    final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        /// Binds `values` to the parameters 1, 2, … and runs the statement to its end.
        func run(_ values: [Value]) throws {
            try check(sqlite3_reset(statement))
            try check(sqlite3_clear_bindings(statement))
            for (i, value) in values.enumerated() {
                let index = Int32(i + 1)
                switch value {
                case .null:
                    try check(sqlite3_bind_null(statement, index))
                case .integer(let n):
                    try check(sqlite3_bind_int64(statement, index, n))
                case .real(let x):
                    try check(sqlite3_bind_double(statement, index, x))
                case .text(let s):
                    try check(sqlite3_bind_text(statement, index, s, -1, csqlite_transient()))
                case .blob(let bytes):
                    try check(bytes.withUnsafeBytes {
                        sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), csqlite_transient())
                    })
                }
            }
            let status = sqlite3_step(statement)
            guard status == SQLITE_DONE || status == SQLITE_ROW else { throw database.failure(status) }
        }

        private func check(_ status: Int32) throws {
            guard status == SQLITE_OK else { throw database.failure(status) }
        }
    }
}
