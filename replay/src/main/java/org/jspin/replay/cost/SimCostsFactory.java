package org.jspin.replay.cost;

import org.jspin.nic.sim.config.SimConfig;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.MessageCostsFactory;

/** {@code --nic sim[:STRATEGY]}: the simulated sPIN NIC's timelines, with {@code jspin sim}'s defaults and the given timing. */
public final class SimCostsFactory implements MessageCostsFactory {
    @Override
    public String kind() {
        return "sim";
    }

    @Override
    public MessageCosts create(String nic, TimingConfig timing) {
        SimConfig config = SimConfig.DEFAULT.withTiming(timing);
        int colon = nic.indexOf(':');
        return new SimCosts(colon < 0 ? config : config.withStrategy(nic.substring(colon + 1)));
    }
}
