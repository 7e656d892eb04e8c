package dev.resilience.core;

/**
 * Attaches the errors a call met on its way to its final error, once each.
 */
final class Suppressed {

    private Suppressed() {
    }

    static void add(Throwable target, Throwable suppressed) {
        if (suppressed == target || suppressed == target.getCause()) {
            return;
        }
        for (Throwable existing : target.getSuppressed()) {
            if (existing == suppressed) {
                return;
            }
        }
        target.addSuppressed(suppressed);
    }

}
