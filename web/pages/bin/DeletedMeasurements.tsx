import { Outlet } from "react-router-dom";
export default function Todo() { return <Outlet />; }
