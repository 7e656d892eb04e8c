package kotlin.coroutines;

/**
 * Stands in for Kotlin's {@code Continuation}, which is not on the test classpath: the
 * compiled form of a Kotlin {@code suspend} function takes one as its last parameter, and
 * the starter recognizes such functions by that parameter's type name alone.
 *
 * @param <T> the type of the function's result
 */
public interface Continuation<T> {

}
