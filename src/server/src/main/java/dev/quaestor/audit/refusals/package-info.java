/**
 * How refusals are recorded: each on its own up to a subject's attempt limit (RefusalRecorder, AttemptLimit), past it
 * merged into windows (MergeWindows) that are recorded as summaries (RefusalSummary); what a recorded refusal hands
 * back to the request (RecordedRefusal).
 */
package dev.quaestor.audit.refusals;
