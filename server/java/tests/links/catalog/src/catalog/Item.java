package catalog;

public record Item(long id, String name) {}
