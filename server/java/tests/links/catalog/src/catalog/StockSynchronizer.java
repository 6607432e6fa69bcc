package catalog;

import java.util.List;

/** The other half of the model's Stock component: the synchronisation. */
public class StockSynchronizer implements IStockSync {
    private int seen;

    @Override
    public void sync(List<Item> items) {
        seen += items.size();
    }
}
