package catalog;

import java.util.ArrayList;
import java.util.List;

public class Catalog implements ICatalog {
    private final List<Item> all = new ArrayList<>();

    @Override
    public List<Item> findMatches(long ownerId, List<Item> currentItems) {
        List<Item> out = new ArrayList<>();
        for (Item item : currentItems) {
            if (item.id() != ownerId && all.contains(item)) {
                out.add(item);
            }
        }
        return out;
    }

    /** Shares a word with the model's `refresh()`, and nothing else. */
    public void refreshCache() {
        all.clear();
    }

    /** Shares a word with the model's `rank(items)`, and nothing else. */
    public int rankByName(String name) {
        return name.length();
    }
}
