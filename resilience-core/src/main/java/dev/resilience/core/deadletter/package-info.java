/**
 * Dead letters: the record of a call whose work was not done, the
 * {@link dev.resilience.core.deadletter.DeadLetterStore} SPI and its bounded in-memory
 * implementation.
 */
@NullMarked
package dev.resilience.core.deadletter;

import org.jspecify.annotations.NullMarked;
