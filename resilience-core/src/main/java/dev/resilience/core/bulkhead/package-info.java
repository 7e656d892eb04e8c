/**
 * The bulkhead: a limit of concurrent calls, fixed or adaptive, with a fair bounded wait.
 *
 * <p>
 * An adaptive bulkhead uses {@link dev.resilience.core.bulkhead.LimitAlgorithm#GRADIENT}
 * unless told otherwise. The gradient compares each call's latency with the latency the
 * bulkhead has seen over many calls, so it needs no threshold: it works the same for a
 * service that answers in two milliseconds and one that answers in two seconds, and a
 * default that needs no tuning is what a starter should ship. AIMD reacts only once the
 * latency crosses a fixed threshold (or calls fail), which someone must choose per
 * service and choose again when the service changes; until then it grows the limit up to
 * its maximum however slow the calls become below the threshold. AIMD remains the better
 * choice where such a threshold is known (a service level objective) or where failures
 * rather than latency signal overload, and is one setting away.
 */
@NullMarked
package dev.resilience.core.bulkhead;

import org.jspecify.annotations.NullMarked;
