package dev.resilience.core.support;

import java.util.List;

/**
 * The one rule by which a policy picks the errors it acts on from two lists of exception
 * types: types to include and types to exclude, each matched with {@code instanceof}
 * (subclasses included). An excluded type wins over an included one, and an empty include
 * list means every error that is not excluded.
 *
 * <p>
 * Used for retry-on and abort-on, the breaker's record-on and ignore-on, and the fallback
 * chain's apply-on and skip-on. Stateless; allocates nothing.
 */
public final class ExceptionFilter {

    private ExceptionFilter() {
    }

    /**
     * Tells whether an error passes the filter.
     * @param error the error
     * @param includes the types to act on; empty means every type not excluded
     * @param excludes the types never to act on, which win over {@code includes}
     * @return {@code false} if the error is an instance of a type in {@code excludes};
     * otherwise whether {@code includes} is empty or the error is an instance of a type
     * in it
     */
    public static boolean matches(Throwable error, List<Class<? extends Throwable>> includes,
            List<Class<? extends Throwable>> excludes) {
        return !isInstanceOfAny(error, excludes) && (includes.isEmpty() || isInstanceOfAny(error, includes));
    }

    /**
     * Tells whether an error is an instance of one of the types.
     * @param error the error
     * @param types the types, subclasses included
     * @return {@code true} if one of the types matches; {@code false} for an empty list
     */
    public static boolean isInstanceOfAny(Throwable error, List<Class<? extends Throwable>> types) {
        for (int i = 0; i < types.size(); i++) {
            if (types.get(i).isInstance(error)) {
                return true;
            }
        }
        return false;
    }

}
