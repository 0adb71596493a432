-- tests/data/store_before_accounts.sql: a SQLite database as asobi serve made it before accounts (main at ab7be23,
-- store_sqlite.c's schema verbatim) with a finished and an unfinished table (seat tokens 0...01, 0...02, 0...03): test_store_accounts opens it.
CREATE TABLE IF NOT EXISTS tables(  id INTEGER PRIMARY KEY AUTOINCREMENT, spec TEXT NOT NULL,  finished INTEGER NOT NULL DEFAULT 0, summary TEXT, record TEXT);
CREATE TABLE IF NOT EXISTS seats(  table_id INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, token_hash TEXT NOT NULL,  PRIMARY KEY(table_id, seat)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS actions(  table_id INTEGER NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL,  by TEXT NOT NULL, clock_ms INTEGER NOT NULL, PRIMARY KEY(table_id, idx)) WITHOUT ROWID;
INSERT INTO tables(id, spec, finished, summary, record) VALUES(1, '{"game":"psycle","players":2}', 1, '{"table":1}', '{"actions":[]}');
INSERT INTO tables(id, spec) VALUES(2, '{"game":"psycle","players":2}');
INSERT INTO seats VALUES(1, 0, 'Aoi', 'e0cca2965509df678c8064f5e0b9076016fa752f88a6c749768db83479450cc5');
INSERT INTO seats VALUES(1, 1, 'Ben', 'd2b1f1d83f0ad4f52dec8a1e2091f5c94ffad00ed3528362353fbe97aacd0187');
INSERT INTO seats VALUES(2, 0, 'Aoi', '19d8d35c06ab2cb2ae937b5b8dd4c8570a15280b813e6f0c534b258c9954c7c6');
INSERT INTO actions VALUES(2, 0, 0, 'play 1', 'human', -1);
