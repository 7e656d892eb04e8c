/**
 * The bulkhead: a limit of concurrent calls, fixed or adaptive, with a fair bounded wait.
 *
 * <p>
 * An adaptive bulkhead decides once per window of calls, as many as its limit and at
 * least ten, from their average latency, whether any failed and the most that ran at
 * once, so the noise of single calls does not move it. It uses
 * {@link dev.resilience.core.bulkhead.LimitAlgorithm#GRADIENT} unless told otherwise. The
 * gradient compares each window's latency with the latency the bulkhead is used to, so it
 * needs no threshold: it refuses no call of a steady load up to three quarters of a
 * healthy downstream's capacity, and in the adaptive-bulkhead simulator
 * (docs/benchmarks.md) keeps a downstream slowed down tenfold busy with a latency about
 * that of a fixed limit sized near the downstream's workers, for services of 4 and 40 ms
 * alike. AIMD bounds the latency at about a threshold, which someone must choose per
 * service and choose again when the service changes: its default of 1 s never protects a
 * service of 4 ms that slows to 40 ms, and one below the slow service's own latency holds
 * the limit near its minimum. AIMD remains the better choice where such a threshold is
 * known (a service level objective), and is one setting away.
 */
@NullMarked
package dev.resilience.core.bulkhead;

import org.jspecify.annotations.NullMarked;
