package catalog;

import java.util.List;

public interface IStockSync {
    void sync(List<Item> items);
}
