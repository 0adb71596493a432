-- tests/data/store_before_accounts_pg.sql: PostgreSQL's tables as asobi serve made them before accounts (main at
-- ab7be23, store_pg.c's schema, its tables verbatim) with one finished table (seat tokens 0...01, 0...02): test_store_accounts opens it.
CREATE SEQUENCE IF NOT EXISTS asobi_table_ids INCREMENT BY 32;
CREATE TABLE IF NOT EXISTS asobi_tables(id BIGINT PRIMARY KEY, spec TEXT NOT NULL,  finished INT NOT NULL DEFAULT 0, summary TEXT, record TEXT);
CREATE TABLE IF NOT EXISTS asobi_seats(table_id BIGINT NOT NULL, seat INT NOT NULL, name TEXT NOT NULL,  token_hash TEXT NOT NULL, PRIMARY KEY(table_id, seat));
CREATE TABLE IF NOT EXISTS asobi_actions(table_id BIGINT NOT NULL, idx INT NOT NULL, seat INT NOT NULL,  action TEXT NOT NULL, by TEXT NOT NULL, clock_ms BIGINT NOT NULL, epoch BIGINT NOT NULL,  PRIMARY KEY(table_id, idx));
CREATE TABLE IF NOT EXISTS asobi_nodes(id TEXT PRIMARY KEY, url TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL);
CREATE TABLE IF NOT EXISTS asobi_leases(table_id BIGINT PRIMARY KEY, node TEXT NOT NULL,  epoch BIGINT NOT NULL, expires TIMESTAMPTZ NOT NULL);
CREATE INDEX IF NOT EXISTS asobi_leases_node ON asobi_leases(node);
CREATE TABLE IF NOT EXISTS asobi_listing(table_id BIGINT PRIMARY KEY, node TEXT NOT NULL, entry TEXT NOT NULL);
-- ids 1 to 32 were a node's block: the next node reserves from 33
SELECT setval('asobi_table_ids', 1);
INSERT INTO asobi_tables(id, spec, finished, summary, record) VALUES(1, '{"game":"psycle","players":2}', 1, '{"table":1}', '{"actions":[]}');
INSERT INTO asobi_seats VALUES(1, 0, 'Aoi', 'e0cca2965509df678c8064f5e0b9076016fa752f88a6c749768db83479450cc5');
INSERT INTO asobi_seats VALUES(1, 1, 'Ben', 'd2b1f1d83f0ad4f52dec8a1e2091f5c94ffad00ed3528362353fbe97aacd0187');
