package org.jspin.replay.cost;

import org.jspin.error.ErrorClass;
import org.jspin.error.MpiException;
import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.MessageCostsFactory;

/** {@code --nic host} (the host model's pack and unpack) and {@code --nic host:measured} (our engine, timed here). */
public final class HostCostsFactory implements MessageCostsFactory {
    @Override
    public String kind() {
        return "host";
    }

    @Override
    public MessageCosts create(String nic, TimingConfig timing) {
        return switch (nic) {
            case "host" -> HostCosts.modelled(timing);
            case "host:measured" -> HostCosts.measured();
            default -> throw new MpiException(ErrorClass.ERR_ARG, "--nic " + nic + ": the host is 'host' (its model) or"
                    + " 'host:measured' (our engine timed on this machine)");
        };
    }
}
