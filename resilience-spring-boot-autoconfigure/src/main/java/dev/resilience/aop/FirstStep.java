package dev.resilience.aop;

/**
 * Where the first step of a call of a method returning {@code Mono}, {@code Flux} or a
 * Kotlin {@code Flow}, or of a {@code suspend} function, runs: where the call is
 * subscribed, or on the pipeline's executor, so that a store that may block
 * ({@link StoresThatMayBlock}) never blocks a thread that must not block. Later steps run
 * on the executor anyway.
 */
enum FirstStep {

    /** Where the call is subscribed: no store of the pipeline may block. */
    HERE,

    /**
     * On the pipeline's executor when the call is subscribed on a thread that must not
     * block ({@link MonoCalls#onExecutor}), else where it is subscribed: a {@code Mono}
     * or {@code Flux}.
     */
    OFF_NON_BLOCKING_THREADS,

    /**
     * On the pipeline's executor: a {@code suspend} function or a {@code Flow}, called or
     * collected in a coroutine whose thread ({@code Dispatchers.Default}'s, among others)
     * must not block, which Reactor's marks do not tell.
     */
    ON_EXECUTOR;

    /**
     * Returns where the first step of a method's calls runs.
     * @param returnKind what the method returns
     * @param storesMayBlock whether a store of its pipeline may block
     * @return the place of the first step
     */
    static FirstStep of(ReturnKind returnKind, boolean storesMayBlock) {
        if (!storesMayBlock) {
            return HERE;
        }
        return (returnKind == ReturnKind.MONO || returnKind == ReturnKind.FLUX) ? OFF_NON_BLOCKING_THREADS
                : ON_EXECUTOR;
    }

}
