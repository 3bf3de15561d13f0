package dev.quaestor.bench.isolation;

import java.util.function.Function;

/** An abuse made of {@link HeldSockets}: connections opened as {@link Stage#openRate} says and held for the phase. */
final class HeldAbuser implements Abuser {

    private final String name;
    private final String description;
    private final Function<Stage, HeldSockets.Spec> spec;
    private HeldSockets sockets;

    HeldAbuser(String name, String description, Function<Stage, HeldSockets.Spec> spec) {
        this.name = name;
        this.description = description;
        this.spec = spec;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void start(Stage stage) throws Exception {
        sockets = new HeldSockets(stage.port(), spec.apply(stage));
        sockets.start();
    }

    @Override
    public String stop() throws Exception {
        sockets.close();
        return sockets.summary();
    }
}
