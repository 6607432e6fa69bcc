package shop;

import java.util.List;

public class OrderServiceImpl implements IOrders {
    private final IInventory inventory;
    private final IShipping shipping;

    public OrderServiceImpl(IInventory inventory, IShipping shipping) {
        this.inventory = inventory;
        this.shipping = shipping;
    }

    public void placeOrder(Order order) {
        placeOrder(order, false);
    }

    @Override
    public void placeOrder(Order order, boolean express) {
        List<Item> items = order.items();
        order.validate();
        for (Item item : items) {
            inventory.reserve(item);
        }
        int tries = 0;
        while (tries < 3) {
            tries++;
        }
        if (express) {
            this.shipping.ship(order);
        } else {
            order.queue();
            order.log("queued");
        }
    }
}
