package catalog;

/** One half of the model's Stock component (no class is named Stock): the queries. */
public class StockEndpoint implements StockQuery {
    @Override
    public int available(long item) {
        return (int) (item % 7);
    }
}
