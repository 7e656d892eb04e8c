/**
 * The instances an application runs, named as in its configuration: their policies,
 * shared breakers and call statistics. Policies come through a
 * {@link dev.resilience.registry.PolicyResolver} that the auto-configuration implements:
 * nothing here sees a configuration class.
 */
@NullMarked
package dev.resilience.registry;

import org.jspecify.annotations.NullMarked;
