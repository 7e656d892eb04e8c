package dev.resilience.aop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;

/**
 * Records the observations started and stopped, so that a test can check each one is
 * stopped exactly once.
 */
final class RecordingObservationHandler implements ObservationHandler<Observation.Context> {

    private final List<Observation.Context> started = new CopyOnWriteArrayList<>();

    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    @Override
    public void onStart(Observation.Context context) {
        this.started.add(context);
    }

    @Override
    public void onStop(Observation.Context context) {
        this.stopped.add(context);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return true;
    }

    List<Observation.Context> started() {
        return List.copyOf(this.started);
    }

    List<Observation.Context> stopped() {
        return List.copyOf(this.stopped);
    }

    void clear() {
        this.started.clear();
        this.stopped.clear();
    }

}
