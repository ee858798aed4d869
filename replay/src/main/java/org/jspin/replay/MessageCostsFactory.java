package org.jspin.replay;

import org.jspin.nic.sim.config.TimingConfig;
import org.jspin.replay.cost.MessageCosts;

/**
 * Makes a NIC's {@link MessageCosts} for {@code jspin project --nic}. Implementations are found with
 * {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/org.jspin.replay.MessageCostsFactory} of the module that has it.
 */
public interface MessageCostsFactory {
    /** @return the NIC kind it makes costs for: {@code host} or {@code sim} (what {@code --nic} names before a ':') */
    String kind();

    /**
     * @param nic    the {@code --nic} entry: the kind, then optionally {@code :STRATEGY} ({@code sim:rw-cp})
     * @param timing the simulated NIC's timing ({@code --preset} then {@code --set}, as {@code jspin sim})
     * @return the NIC's costs, its {@link MessageCosts#nic()} naming what the output reports
     */
    MessageCosts create(String nic, TimingConfig timing);
}
