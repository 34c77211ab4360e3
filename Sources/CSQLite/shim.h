#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a destructor pointer, which Swift cannot import:
   the binding functions take it from here (SQLite copies the bytes before the call returns). */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
