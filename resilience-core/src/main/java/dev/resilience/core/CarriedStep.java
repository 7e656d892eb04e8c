package dev.resilience.core;

/**
 * A step run with its call's {@link CarriedContext}: when the context fails before the
 * step ran, the step runs without it, so that a faulty context cannot leave a call
 * unended.
 */
final class CarriedStep implements Runnable {

    private final Runnable step;

    private final Runnable carried;

    private boolean ran;

    private CarriedStep(CarriedContext context, Runnable step) {
        this.step = step;
        this.carried = context.around(this::runStep);
    }

    /**
     * Returns a step run with a call's context.
     * @param context the call's context
     * @param step the step
     * @return the step itself when the call carries nothing, else the carried step
     */
    static Runnable of(CarriedContext context, Runnable step) {
        if (context == CarriedContext.NONE) {
            return step;
        }
        try {
            return new CarriedStep(context, step);
        }
        catch (RuntimeException ex) {
            return step;
        }
    }

    private void runStep() {
        this.ran = true;
        this.step.run();
    }

    @Override
    public void run() {
        try {
            this.carried.run();
        }
        finally {
            if (!this.ran) {
                runStep();
            }
        }
    }

}
