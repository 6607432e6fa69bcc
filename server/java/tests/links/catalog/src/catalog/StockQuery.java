package catalog;

/** The model's IStockQuery, without the `I`. */
public interface StockQuery {
    int available(long item);
}
