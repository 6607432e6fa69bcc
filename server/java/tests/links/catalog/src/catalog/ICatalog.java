package catalog;

import java.util.List;

/** The model's ICatalog: its `find(items)` is `findMatches` here, with the owner as one parameter more. */
public interface ICatalog {
    List<Item> findMatches(long ownerId, List<Item> currentItems);
}
