/**
 * Dead-letter re-drive: a dead letter's call run again through its bean's proxy, with its
 * stored arguments read back into the method's parameter types.
 */
@NullMarked
package dev.resilience.redrive;

import org.jspecify.annotations.NullMarked;
