package dev.resilience.core.idempotency;

/**
 * The value a key is completed with when the call's own result could not be stored. A
 * claim that finds it ends with {@link IdempotencyResultUnavailableException}: the method
 * ran once and does not run again for the key, and its result cannot be given back. A
 * store that encodes values must keep this one recognisable, so that a claim returns it
 * as a {@code NotReplayableResult} again (or an {@link EncodedResult} whose decoding
 * throws {@link IdempotencyResultUnavailableException}).
 *
 * @param reason why the result could not be stored, without any of its content
 */
public record NotReplayableResult(String reason) {
}
