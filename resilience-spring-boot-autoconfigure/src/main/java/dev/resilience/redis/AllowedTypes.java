package dev.resilience.redis;

import java.util.Collection;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which stored classes a replay may read where a type is declared: the declared class
 * itself, and its subtypes in the declared class's package or named in
 * {@code resilience.idempotency.allowed-types}, whose entries are class names (binary
 * names, {@code com.example.Outer$Inner}) or package names (that package only, not its
 * subpackages). Where the declared class is a JDK class ({@code Object},
 * {@code Runnable}, {@code Serializable}), its package is the JDK's: a JDK subtype of it
 * is read there only as a value (a number, a string, a date), never as a bean built
 * through its constructor and setters (such as a {@code java.lang.Thread}), unless the
 * allowed types name it. Immutable.
 */
final class AllowedTypes {

    private final Set<String> entries;

    AllowedTypes(Collection<String> entries) {
        this.entries = Set.copyOf(entries);
    }

    /**
     * Tells whether a stored class may be read where a class is declared.
     * @param declared the class declared at the position
     * @param stored the class the stored data names, loaded without being initialized
     * @param readAsBean tells whether the store's mapper builds a class as a bean,
     * through its constructor and setters, rather than as a value
     * @return whether it is the declared class or an allowed subtype of it
     */
    boolean allows(Class<?> declared, Class<?> stored, Predicate<Class<?>> readAsBean) {
        if (!declared.isAssignableFrom(stored)) {
            return false;
        }
        if (stored == declared || this.entries.contains(stored.getName())
                || this.entries.contains(stored.getPackageName())) {
            return true;
        }
        if (!stored.getPackageName().equals(declared.getPackageName())) {
            return false;
        }
        return !isJdk(declared) || !readAsBean.test(stored);
    }

    private static boolean isJdk(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        String name = type.getName();
        return loader == null || loader == ClassLoader.getPlatformClassLoader() || name.startsWith("java.")
                || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.");
    }

    /**
     * Says why a stored class is refused, and how to allow it.
     * @param declared the class declared at the position
     * @param storedName the stored class's name
     * @return the reason
     */
    static String refusal(Class<?> declared, String storedName) {
        return "the stored class " + storedName + " is not allowed where " + declared.getName()
                + " is declared: a replay reads only the declared class and its subtypes in package '"
                + declared.getPackageName() + "' or in resilience.idempotency.allowed-types";
    }

}
