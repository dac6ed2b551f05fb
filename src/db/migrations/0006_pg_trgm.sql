-- Trigram indexes (name keywords of listCompanies, name prefix of listUsers) need pg_trgm. It is a
-- trusted extension: the database owner may create it. PGlite loads it in src/db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
