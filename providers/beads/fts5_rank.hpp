#pragma once

// mailroom_rank, the bead store's search ranking: an FTS5 auxiliary function registered on every
// connection the store opens.
//
//   mailroom_rank(beads_fts, w0, w1, ...) -> -(sum over columns c of w_c * tf_c / (tf_c + 1.2))
//
// where tf_c is how often the query's phrases occur in column c (FTS5's xInst list) and w_c the
// weight given for that column (1.0 when left out). Lower is better, as with FTS5's bm25, so
// the same ORDER BY serves both. Unlike bm25 it reads no document length: bm25 looks up every
// match's column sizes (one B-tree search each), which dominated ranking many matches
// (BENCHMARKS.md, "Measurements behind the code"); this reads only the positions FTS5 already
// holds. Equal scores
// are left to the caller (the store shows the newer message first).

#include "base/result.hpp"
#include "sqlite/database.hpp"

namespace mailroom::providers::beads {

// Registers mailroom_rank on `db`. Fails only when the SQLite library lacks FTS5.
Result<void> register_rank(sqlite::Database& db);

} // namespace mailroom::providers::beads
