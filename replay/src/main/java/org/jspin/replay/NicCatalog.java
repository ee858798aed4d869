package org.jspin.replay;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Consumer;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.cost.MessageCosts;

/**
 * The NICs {@code jspin project --nic} can name: {@code host} and {@code sim[:STRATEGY]} through the
 * {@link MessageCostsFactory}s installed, and {@code plain} ({@link PlainBytes}, LogGOPSim's model
 * alone). A kind with no factory installed replays as plain bytes under {@code KIND:plain}, with a
 * warning, so that no figure passes plain bytes off as a NIC's costs.
 */
public final class NicCatalog {
    /** The kind that needs no factory. */
    public static final String PLAIN = "plain";

    private final Map<String, MessageCostsFactory> factories = new LinkedHashMap<>();

    /** A catalog of the factories {@link ServiceLoader} finds. */
    public NicCatalog() {
        this(ServiceLoader.load(MessageCostsFactory.class));
    }

    /** A catalog of the given factories (the first of a kind wins). */
    public NicCatalog(Iterable<MessageCostsFactory> installed) {
        for (MessageCostsFactory f : installed) factories.putIfAbsent(f.kind(), f);
    }

    /**
     * @param nic    {@code host}, {@code sim}, {@code sim:STRATEGY} or {@code plain}
     * @param timing the simulated NIC's timing
     * @param warn   told when a kind has no cost model installed
     * @return the NIC's costs
     * @throws MpiException ERR_ARG for any other kind
     */
    public MessageCosts costs(String nic, TimingConfig timing, Consumer<String> warn) {
        String kind = nic.contains(":") ? nic.substring(0, nic.indexOf(':')) : nic;
        if (kind.equals(PLAIN)) return new PlainBytes(PLAIN);
        if (!kind.equals("host") && !kind.equals("sim") && !factories.containsKey(kind)) {
            throw new MpiException(ErrorClass.ERR_ARG, "--nic " + nic + ": not host, sim[:STRATEGY] or plain");
        }
        MessageCostsFactory f = factories.get(kind);
        if (f != null) return f.create(nic, timing);
        warn.accept("no cost model for '" + kind + "' is installed: " + nic + " replays plain bytes, reported as "
                + nic + ":plain");
        return new PlainBytes(nic + ":plain");
    }
}
