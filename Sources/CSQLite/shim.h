// The system's SQLite (Debian's libsqlite3-dev): the disk cache's index. Only
// Sources/Magpie/Cache/Store/SQLite.swift imports it.
#include <sqlite3.h>
