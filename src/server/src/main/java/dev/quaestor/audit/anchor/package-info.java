/**
 * Anchoring: checkpoints time-stamped by the TSA, apart from the request path (Anchorer, its client TsaClient, when
 * to anchor: AnchorPolicy, the stored anchors: AnchorStore), and the pinned TSA roots a time-stamp is checked against
 * (PinnedTsaRoots).
 */
package dev.quaestor.audit.anchor;
